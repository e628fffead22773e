/**
 * Memory budgets for query state (docs/architecture.md, "Memory budgets"): {@link
 * io.cairn.core.memory.MemoryPool}, a tree of budgets (server, database, connection, query) whose
 * reservations count in every pool above; {@link io.cairn.core.memory.MemoryReservation}, an
 * operator's bytes taken in quanta and returned on close; {@link io.cairn.core.memory.RowSizes},
 * the estimates operators reserve by. Used by the store's scanners and the driver's operators
 * alike. Uses only {@code io.cairn.core.error}; pools are thread-safe, a reservation belongs to one
 * operator (one thread at a time).
 */
package io.cairn.core.memory;
