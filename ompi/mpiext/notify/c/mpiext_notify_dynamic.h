/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The generic path's range check on dynamic windows (osc pt2pt writes
 * wherever the address points, osc rdma checks only where an access
 * starts): each process records the
 * regions it attaches, and an origin asks a target for its list over the
 * window's hidden communicator when its cached copy does not cover an
 * access (mpiext_notify_dynamic.c).
 */
#ifndef MPIEXT_NOTIFY_DYNAMIC_H
#define MPIEXT_NOTIFY_DYNAMIC_H

#include "ompi_config.h"

#include <stdint.h>

#include "ompi/communicator/communicator.h"

BEGIN_C_DECLS

typedef struct ompix_notify_dyn_t ompix_notify_dyn_t;

/* Collective-free: posts this process's query receive on comm (the
 * window's hidden communicator, which outlives the object). */
int ompix_notify_dyn_create(ompi_communicator_t *comm, ompix_notify_dyn_t **out);
/* At window free, before comm is freed: no query is in flight then (an
 * origin waits for its answer), replies still sending are completed. */
void ompix_notify_dyn_destroy(ompix_notify_dyn_t *d);

/* This process attached / detached a region of the window. */
int ompix_notify_dyn_attach(ompix_notify_dyn_t *d, const void *base, size_t len);
void ompix_notify_dyn_detach(ompix_notify_dyn_t *d, const void *base);

/* MPI_SUCCESS when [lo, hi) lies in one region target had attached when
 * asked (its list is fetched again when the cached one does not cover
 * it), MPI_ERR_RMA_RANGE otherwise.  Blocks on target's progress for a
 * fetch, as every operation on such a component does. */
int ompix_notify_dyn_check(ompix_notify_dyn_t *d, int target, int64_t lo, int64_t hi);

/* From the progress callback: answer queries, release sent replies.
 * Never blocks (trylock). */
int ompix_notify_dyn_progress(ompix_notify_dyn_t *d);

END_C_DECLS

#endif /* MPIEXT_NOTIFY_DYNAMIC_H */
