/**
 * The tables of a database: {@link io.cairn.core.catalog.TableDescriptor} and {@link
 * io.cairn.core.catalog.ColumnDescriptor} with their {@link io.cairn.core.catalog.TableOptions},
 * local indexes ({@link io.cairn.core.catalog.IndexDescriptor}; the catalog's rules for them in
 * {@code CatalogIndexes}) and serialized form ({@link io.cairn.core.catalog.DescriptorSerializer});
 * the {@link io.cairn.core.catalog.Catalog} that the planner and the driver read; {@link
 * io.cairn.core.catalog.StoreCatalog}, which keeps the descriptors in the store's own system table
 * through the KV SPI; and the system views ({@link io.cairn.core.catalog.SystemViews}). The top of
 * core: uses the KV SPI and the packages below it. Catalogs are thread-safe, DDL is serialised.
 */
package io.cairn.core.catalog;
