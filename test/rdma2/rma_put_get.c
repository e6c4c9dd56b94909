/*
 * ompix-test: np=2,3,4 tls=shm,tcp,net pml=ob1 timeout=120 paths="win:ucx state:ucx acc:am" mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Data movement with derived datatypes: every RMA operation (Put, Get,
 * Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap, Rput, Rget,
 * Raccumulate, Rget_accumulate) with every combination of contiguous,
 * vector, indexed (blocks out of address order) and struct (resized,
 * blocks out of order) origin and target datatypes, the result datatype
 * cycling through all four, on every window flavor (create, allocate,
 * dynamic, shared), in a shared-lock epoch to the right neighbour and in a
 * fence epoch from every rank to every rank (itself included).  Each
 * target element, each fetched element, and each result-buffer element
 * outside the result datatype (must stay untouched) is checked exactly.
 *
 * Optional arguments for debugging by hand: a flavor index and an
 * operation mask restrict the run.
 */
#include "rdma2_engine.h"

int main(int argc, char **argv)
{
    struct layout ly[NLAYOUTS];
    int only_fl = argc > 1 ? atoi(argv[1]) : -1;
    unsigned mask = argc > 2 ? (unsigned) strtoul(argv[2], NULL, 0) : ALL_OPS;

    ompix_test_init(&argc, &argv);
    for (int k = 0; k < NLAYOUTS; ++k) {
        layout_make(&ly[k], k);
    }
    for (int fl = 0; fl < NFLAVORS; ++fl) {
        struct rwin w;
        if ((only_fl >= 0 && fl != only_fl) || !rwin_flavor_ok(fl, MPI_COMM_WORLD)) {
            continue;
        }
        set_case("%s window creation", flavor_name[fl]);
        rwin_open(&w, fl, engine_nelem(), MPI_COMM_WORLD);
        for (int o = 0; o < NLAYOUTS; ++o) {
            for (int t = 0; t < NLAYOUTS; ++t) {
                const struct layout *rl = &ly[(o + t) % NLAYOUTS];
                run_case(&w, S_LOCK_SHARED, PAT_RIGHT, mask, &ly[o], &ly[t], rl);
                run_case(&w, S_FENCE, PAT_ALL, mask, &ly[o], &ly[t], rl);
            }
        }
        rwin_close(&w);
    }
    for (int k = 0; k < NLAYOUTS; ++k) {
        layout_free(&ly[k]);
    }
    return ompix_test_finish("rdma2/rma_put_get");
}
