/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Node-local shared segments over Open MPI's opal shmem framework.
 */
#include "ompi_config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "opal/align.h"
#include "opal/mca/shmem/base/base.h"
#include "opal/util/proc.h"
#include "ompi/mca/common/ompix/common_ompix_compat_comm.h"
#include "ompi/mca/common/ompix/common_ompix_compat_rte.h"
#include "ompi/proc/proc.h"

#include "common_ompix_shm.h"

bool mca_common_ompix_shm_comm_on_node(ompi_communicator_t *comm)
{
    int size = ompi_comm_size(comm);

    for (int i = 0; i < size; ++i) {
        ompi_proc_t *proc = ompi_comm_peer_lookup(comm, i);
        if (NULL == proc || !OPAL_PROC_ON_LOCAL_NODE(proc->super.proc_flags)) {
            return false;
        }
    }
    return true;
}

/* /dev/shm when we may write there (tmpfs, never written back to disk),
 * else the job's session directory. */
static const char *mca_common_ompix_shm_directory(void)
{
    return 0 == access("/dev/shm", W_OK) ? "/dev/shm" : ompi_process_info.proc_session_dir;
}

int mca_common_ompix_shm_map(ompi_communicator_t *comm, const char *owner, int tag, size_t len,
                             bool ok, mca_common_ompix_shm_t *seg, bool *all_ok)
{
    struct {
        int created;
        opal_shmem_ds_t ds;
    } hello;
    int rank = ompi_comm_rank(comm), mine, all = 0, rc;
    void *base = NULL;

    memset(&hello, 0, sizeof(hello));
    memset(seg, 0, sizeof(*seg));
    if (0 == rank) {
        char path[OPAL_PATH_MAX];
        snprintf(path, sizeof(path), "%s/ompix_%s.%s.%x.%d.%d.%d", mca_common_ompix_shm_directory(),
                 owner, ompi_process_info.nodename, OMPI_PROC_MY_NAME->jobid,
                 (int) OMPI_PROC_MY_NAME->vpid, (int) mca_common_ompix_comm_local_cid(comm), tag);
        /* opal shmem puts its own header first: room to align past it */
        hello.created = OPAL_SUCCESS ==
                        opal_shmem_segment_create(&hello.ds, path, len + MCA_COMMON_OMPIX_SHM_LINE);
    }
    rc = comm->c_coll->coll_bcast(&hello, sizeof(hello), MPI_BYTE, 0, comm,
                                  comm->c_coll->coll_bcast_module);
    if (OMPI_SUCCESS != rc) {
        if (0 == rank && hello.created) {
            opal_shmem_unlink(&hello.ds);
        }
        return rc;
    }
    if (hello.created) {
        seg->ds = hello.ds;
        base = opal_shmem_segment_attach(&seg->ds);
    }
    mine = ok && NULL != base;
    rc = comm->c_coll->coll_allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm,
                                      comm->c_coll->coll_allreduce_module);
    if (0 == rank && hello.created) {
        opal_shmem_unlink(&seg->ds);
    }
    if (NULL != base && (OMPI_SUCCESS != rc || !all)) {
        opal_shmem_segment_detach(&seg->ds);
        base = NULL;
    }
    if (NULL != base) {
        seg->base = (void *) OPAL_ALIGN((uintptr_t) base, MCA_COMMON_OMPIX_SHM_LINE, uintptr_t);
    }
    *all_ok = NULL != seg->base;
    return rc;
}

void mca_common_ompix_shm_unmap(mca_common_ompix_shm_t *seg)
{
    if (NULL != seg->base) {
        opal_shmem_segment_detach(&seg->ds);
        seg->base = NULL;
    }
}
