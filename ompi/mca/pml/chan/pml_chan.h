/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan: the component (never the selected PML; it stays loaded beside
 * it), the records behind describe(), and the channel engine.  See
 * README-design.md.
 */
#ifndef MCA_PML_CHAN_H
#define MCA_PML_CHAN_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stdint.h>

#include "opal/class/opal_hash_table.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "opal/util/output.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/common/ompix/common_ompix_ucx.h"

#include "pml_chan_api.h"

BEGIN_C_DECLS

struct mca_pml_chan_end_t;

/* pml_chan_remote: messages between processes that can not map each
 * other's memory. */
enum {
    MCA_PML_CHAN_REMOTE_TAG,        /* pml_chan_path_tag.c */
    MCA_PML_CHAN_REMOTE_AM,         /* pml_chan_path_am.c */
};

typedef struct mca_pml_chan_component_t {
    mca_pml_base_component_t super;

    /* MCA parameters */
    int enable;                     /* 0: describe only */
    int verbose;
    bool debug_ready;               /* detect a ready start before its receive */
    size_t large_min;               /* contiguous receives this big: the large path */
    size_t large_sync_min;          /* the same for synchronous channels (0: large_min) */
    bool large_cma;                 /* the large path may use cma */
    int remote;                     /* MCA_PML_CHAN_REMOTE_* */
    int output;

    /* State */
    bool active;                    /* retained, entries wrapped */
    mca_pml_base_module_isend_init_fn_t isend_init;   /* the selected PML's */
    mca_pml_base_module_irecv_init_fn_t irecv_init;
    mca_pml_base_component_finalize_fn_t pml_finalize;  /* the selected PML's */
    opal_hash_table_t records;      /* ompi_request_t * -> mca_pml_chan_record_t * */
    opal_mutex_t lock;              /* records, UCX bring-up, the end lists */

    /* The engine */
    bool ucx_ready, ucx_failed;
    mca_common_ompix_ucx_t ucx;
    void *worker_address;
    size_t worker_address_len;
    bool progress_registered;
    bool have_worker_ends;          /* some end moves data through the worker (TAG, AM, puts) */
    bool mappable;                  /* a same-node peer maps our UCX memory (ucp_rkey_ptr) */
    size_t request_size;            /* UCX's, before a request we allocate (TAG path) */
    uint64_t next_tag;              /* TAG path: the next receiving end's number */
    unsigned int idle_calls;        /* progress calls with nothing outstanding */
    volatile int32_t outstanding;   /* ends with starts not yet done */
    opal_list_t busy;               /* those ends */
    bool walking;                   /* progress is walking them (pml_chan_progress.c) */
    opal_list_t ends;               /* every connected end (finalize releases them) */
    opal_list_t zombies;            /* unbound ends whose memory a peer may still write */
    opal_list_t spares;             /* memory no peer writes, kept for the next bind */
} mca_pml_chan_component_t;

OMPI_DECLSPEC extern mca_pml_chan_component_t mca_pml_chan_component;

#define MCA_PML_CHAN_VERBOSE(lvl, ...) \
    opal_output_verbose((lvl), mca_pml_chan_component.output, "pml/chan: " __VA_ARGS__)

/* pml_chan_describe.c */
int mca_pml_chan_describe_init(void);
void mca_pml_chan_describe_fini(void);
int mca_pml_chan_isend_init(const void *buf, size_t count, struct ompi_datatype_t *datatype,
                            int dst, int tag, mca_pml_base_send_mode_t mode,
                            struct ompi_communicator_t *comm, struct ompi_request_t **request);
int mca_pml_chan_irecv_init(void *buf, size_t count, struct ompi_datatype_t *datatype, int src,
                            int tag, struct ompi_communicator_t *comm,
                            struct ompi_request_t **request);
int mca_pml_chan_describe(MPI_Request req, mca_pml_chan_reqinfo_t *info);

/* pml_chan_mpit.c: MPI_T performance variables; bound and unbound under
 * the component's lock, when an end joins and leaves the ends list */
void mca_pml_chan_mpit_register(void);
void mca_pml_chan_mpit_bound(const struct mca_pml_chan_end_t *end);
void mca_pml_chan_mpit_unbound(const struct mca_pml_chan_end_t *end);

/* pml_chan_ucx.c */
int mca_pml_chan_ucx_init(void);
void mca_pml_chan_ucx_fini(void);

/* pml_chan_progress.c */
int mca_pml_chan_progress(void);

/* pml_chan_bind.c */
int mca_pml_chan_prepare(const mca_pml_chan_spec_t *spec, struct mca_pml_chan_half_t **half,
                         void *blob, size_t *len);
int mca_pml_chan_connect(struct mca_pml_chan_half_t *half, const void *peer_blob,
                         size_t peer_len, MPI_Request *chan);
void mca_pml_chan_abandon(struct mca_pml_chan_half_t *half);
int mca_pml_chan_unbind(MPI_Request chan);
void mca_pml_chan_bind_fini(void);

/* pml_chan_request_start.c */
int mca_pml_chan_request_start(size_t count, ompi_request_t **requests);
int mca_pml_chan_request_start_round(size_t count, ompi_request_t **requests,
                                     int (*cb)(ompi_request_t *chan), void *cb_data);

/* pml_chan_request_wait.c */
void mca_pml_chan_request_settle(ompi_request_t *request);
void mca_pml_chan_request_hold(ompi_request_t *request);
int mca_pml_chan_request_test(ompi_request_t *request);
void mca_pml_chan_request_wait(ompi_request_t *request);

/* pml_chan_request.c */
int mca_pml_chan_request_direction(ompi_request_t *request);

END_C_DECLS

#endif /* MCA_PML_CHAN_H */
