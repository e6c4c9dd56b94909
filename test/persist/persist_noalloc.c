/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=120 valgrind=no
 *
 * MPI_Start of a planned collective allocates nothing: every malloc,
 * calloc and realloc called from coll/persist's code is counted (this
 * program's definitions interpose libc's for every library) across 1000
 * start+wait cycles of each persistent collective.  Allocations that the
 * transports make to grow their own pools are not coll/persist's, and are
 * the same for any implementation.  It also checks that coll/persist is
 * the component that planned them (its init code allocates), under the
 * default selection.  Not under valgrind, whose allocator replaces these
 * definitions.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include "ompix_test.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static volatile int counting;
static long allocations;

/* Whether the code at addr belongs to coll/persist (its own DSO). */
static void note(void *caller)
{
    Dl_info info;
    if (!counting) {
        return;
    }
    counting = 0;                       /* dladdr must not count itself */
    if (dladdr(caller, &info) && info.dli_fname && strstr(info.dli_fname, "coll_persist")) {
        allocations++;
    }
    counting = 1;
}

void *malloc(size_t n) { note(__builtin_return_address(0)); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { note(__builtin_return_address(0)); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { note(__builtin_return_address(0)); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }

#define N 8
int main(int argc, char **argv)
{
    static int sb[N * 64], rb[N * 64];
    MPI_Request r[8];
    int n = 0;

    ompix_test_init(&argc, &argv);
    counting = 1;                       /* init allocates: proves coll/persist serves them */
    MPIX_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Bcast_init(sb, N, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Allreduce_init(sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Allgather_init(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Alltoall_init(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Reduce_init(sb, rb, N, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Gather_init(sb, N, MPI_INT, rb, N, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Scan_init(sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    counting = 0;
    if (0 == allocations) printf("rank %d: coll/persist did not plan these collectives\n", rank);
    CHECK(allocations > 0);
    for (int k = 0; k < n; ++k) {
        MPI_Start(&r[k]);
        MPI_Wait(&r[k], MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < n; ++k) {
        allocations = 0;
        counting = 1;
        for (int it = 0; it < 1000; ++it) {
            MPI_Start(&r[k]);
            MPI_Wait(&r[k], MPI_STATUS_IGNORE);
        }
        counting = 0;
        if (allocations) printf("rank %d: collective %d allocated %ld times in 1000 starts\n", rank, k, allocations);
        CHECK(0 == allocations);
    }
    for (int k = 0; k < n; ++k) MPI_Request_free(&r[k]);
    return ompix_test_finish("persist_noalloc");
}
