/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Internal state of bound channels.  ../README-design.md says where each
 * part lives and why; docs/ARCHITECTURE.md describes the bind protocol.
 */

#ifndef MPIEXT_CHAN_INTERNAL_H
#define MPIEXT_CHAN_INTERNAL_H

#include "ompi_config.h"

#include "mpi.h"
#include "opal/class/opal_hash_table.h"
#include "opal/class/opal_list.h"
#include "ompi/mca/common/ompix/common_ompix_compat_request.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/mca/common/ompix/common_ompix_reqfn.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/info/info.h"
#include "ompi/request/request.h"

#include "ompi/mca/pml/chan/pml_chan_api.h"

#include "mpiext_chan_c.h"

BEGIN_C_DECLS

/* Tags of the private communication space on the user's communicator.
 * Ordinary receives never match them: ob1's MPI_ANY_TAG matches tags >= 0
 * only, and pml ucx keeps 24 tag bits and requires bit 23 clear for
 * MPI_ANY_TAG; all of ours have bit 23 set in their low 24 bits
 * (0x800000 + n).  Collectives use -10..-26 and libnbc counts down from -27:
 * it would need about 4 million nonblocking collectives on one
 * communicator to reach our range.  See ../README-design.md. */
#define OMPIX_CHAN_TAG_OFFER (-8388608)        /* 24 bits: 0x800000 */
#define OMPIX_CHAN_TAG_FIRST (-8388607)        /* replies and data: + id */
#define OMPIX_CHAN_TAG_IDS   (1 << 22)

/* Control messages: the offer of a send end, the reply of a receive end. */
#define OMPIX_CHAN_MAGIC_OFFER 0x4348414f      /* "CHAO" */
#define OMPIX_CHAN_MAGIC_REPLY 0x43484152      /* "CHAR" */

/* Type signatures (mpiext_chan_signature.c): runs of one opal basic type. */
#define OMPIX_CHAN_SIG_RUNS   64       /* runs an offer carries; beyond: hash */
#define OMPIX_CHAN_SIG_OVER   0x1      /* more runs than that: runs not kept */
#define OMPIX_CHAN_SIG_PACKED 0x2      /* MPI_PACKED: matches anything in bytes */

typedef struct ompix_chan_sig_run_t {
    uint32_t type;          /* opal basic type id */
    uint32_t pad;
    uint64_t len;           /* elements */
} ompix_chan_sig_run_t;

typedef struct ompix_chan_sig_t {
    uint64_t total;         /* basic elements */
    uint64_t hash;          /* of the whole sequence, mod 2^61-1 */
    uint64_t pw;            /* the hash's base to the power total */
    uint32_t nruns;         /* valid unless OMPIX_CHAN_SIG_OVER */
    uint32_t flags;         /* OMPIX_CHAN_SIG_* */
    ompix_chan_sig_run_t runs[OMPIX_CHAN_SIG_RUNS];
} ompix_chan_sig_t;

typedef struct ompix_chan_wire_offer_t {
    int32_t magic;
    int32_t tag;            /* the send's tag */
    int32_t mode;           /* mca_pml_chan_reqinfo_t.send_mode */
    int32_t slack;
    int32_t reply_tag;      /* where the receive end replies */
    uint32_t sig_flags;     /* OMPIX_CHAN_SIG_* of the send's signature */
    uint64_t bytes;         /* packed bytes of one message */
    uint64_t blob_len;      /* engine blob that follows; 0: no engine */
    uint64_t sig_total;     /* basic elements of the send's signature */
    uint64_t sig_hash;      /* its hash */
    uint32_t sig_runs;      /* runs that follow the blob (0 if OVER) */
    uint32_t pad;
} ompix_chan_wire_offer_t;

typedef struct ompix_chan_wire_reply_t {
    int32_t magic;
    int32_t rc;             /* MPI error class both ends report, or MPI_SUCCESS */
    int32_t data_tag;       /* the fallback channel's tag */
    int32_t pad;
    uint64_t blob_len;
} ompix_chan_wire_reply_t;

#define OMPIX_CHAN_MSG_MAX (sizeof(ompix_chan_wire_offer_t) + MCA_PML_CHAN_BLOB_MAX \
                            + OMPIX_CHAN_SIG_RUNS * sizeof(ompix_chan_sig_run_t))

/* An offer received by a receive end and not matched yet. */
typedef struct ompix_chan_offer_t {
    opal_list_item_t super;
    int source;
    size_t len;
    unsigned char msg[OMPIX_CHAN_MSG_MAX];
} ompix_chan_offer_t;
OBJ_CLASS_DECLARATION(ompix_chan_offer_t);

/* What the extension keeps per communicator it binds on.  Kept (and the
 * communicator retained) until MPI_Finalize: a posted offer receive may
 * hold an offer for a later bind. */
typedef struct ompix_chan_comm_t {
    opal_list_item_t super;        /* in ompix_chan_global.comms */
    ompi_communicator_t *comm;
    int32_t next_id;               /* tags this process receives on */
    opal_list_t offers;            /* unmatched offers, arrival order */
    opal_list_t rbinds;            /* receive ends waiting for an offer, bind order */
    opal_list_t busy;              /* binds waiting for a reply or a send */
    ompi_request_t *ctrl;          /* the posted offer receive, or NULL */
    unsigned char ctrl_buf[OMPIX_CHAN_MSG_MAX];
} ompix_chan_comm_t;
OBJ_CLASS_DECLARATION(ompix_chan_comm_t);

enum {
    OMPIX_CHAN_BIND_WAIT_OFFER = 1, /* receive end: no offer matched yet */
    OMPIX_CHAN_BIND_WAIT_REPLY,     /* send end: offer posted */
    OMPIX_CHAN_BIND_SENDING,        /* receive end: reply posted */
    OMPIX_CHAN_BIND_DONE
};

/* One end of one bind in progress. */
typedef struct ompix_chan_bind_t {
    opal_list_item_t super;        /* in its comm's rbinds or busy list */
    ompix_chan_comm_t *cs;
    ompi_request_t *req_in;
    MPI_Request *req_out;
    /* A nonblocking bind from Fortran (mpif-h): the caller's Fortran handle,
     * stored at completion; req_out is then &req_out_c, which lives as
     * long as the bind. */
    MPI_Fint *req_out_f;
    MPI_Request req_out_c;
    mca_pml_chan_reqinfo_t info;   /* req_in as created (wildcards resolved at match) */
    int slack;
    long increment;
    size_t bytes;
    int my_tag;                    /* send end: reply tag; receive end: data tag */
    int peer_tag;                  /* send end: the data tag the receiver chose */
    int state;
    int rc;
    bool nonblocking;              /* req_in stands for the bind until completed */
    ompi_request_start_fn_t in_start; /* req_in's own while it stands for the bind */
    ompi_request_free_fn_t in_free;
    ompi_request_cancel_fn_t in_cancel;
    volatile bool done;
    struct mca_pml_chan_half_t *half;
    size_t blob_len;               /* our engine blob; 0: no engine */
    ompi_request_t *sreq;          /* the offer or the reply in flight */
    ompi_request_t *rreq;          /* send end: the reply's receive */
    unsigned char out[OMPIX_CHAN_MSG_MAX];
    unsigned char in[OMPIX_CHAN_MSG_MAX];
    ompi_request_t *chan;          /* the result */
} ompix_chan_bind_t;

/* One start's receive or send of a fallback channel: an ordinary
 * persistent request of the selected PML, created at the first start that
 * needs it (mpiext_chan_fallback.c). */
typedef struct ompix_chan_slot_t {
    struct ompix_chan_fb_t *fb;
    int index;                     /* the ring position it serves now */
    volatile bool done;
    ompi_request_t *req;
    struct ompix_chan_slot_t *next; /* in the channel's pool while unused */
    struct ompix_chan_slot_t *all;  /* every slot of the channel */
} ompix_chan_slot_t;

/* A channel on the generic fallback: ordinary persistent requests on a
 * private tag, started round-robin over K ring positions.  A channel bound
 * from a request to MPI_PROC_NULL has none: its starts complete at once. */
typedef struct ompix_chan_fb_t {
    ompi_request_t super;
    ompi_communicator_t *comm;
    int is_send;
    int peer;                      /* MPI_PROC_NULL: a channel to no one */
    int user_tag;                  /* the bound send's tag (statuses report it) */
    int slack;
    int head;                      /* oldest start outstanding */
    int outstanding;
    bool presented;                /* the head's completion is in super */
    bool unbinding;                /* Iunbind: the next free is real */
    bool watched;                  /* counted in ompix_chan_global.num_watched */
    mca_common_ompix_request_show_t show;  /* how req_state shows (5.0: parked while
                                    * armed with room; common_ompix_compat_request.h) */
    opal_atomic_lock_t lock;
    ompix_chan_slot_t **ring;      /* K positions: the slot of each start outstanding */
    ompix_chan_slot_t *pool;       /* slots not serving a position (increment 0) */
    ompix_chan_slot_t *slots;      /* all of them (chained by all) */
    /* What the slots' requests are created with. */
    void *buf;
    size_t count;
    ompi_datatype_t *type;         /* retained */
    int data_tag;
    bool sync;
    ptrdiff_t stride;              /* bytes between positions (address_base_increment) */
} ompix_chan_fb_t;
OBJ_CLASS_DECLARATION(ompix_chan_fb_t);

/* Kinds of channels in ompix_chan_global.chans. */
#define OMPIX_CHAN_KIND_FALLBACK ((void *) 1)
#define OMPIX_CHAN_KIND_ENGINE   ((void *) 2)
#define OMPIX_CHAN_KIND_ENGINE_SLACK ((void *) 3)  /* slack > 1: counted in num_watched */

typedef struct ompix_chan_global_t {
    opal_mutex_t lock;             /* everything below */
    opal_list_t comms;             /* ompix_chan_comm_t */
    opal_hash_table_t comm_map;    /* ompi_communicator_t* -> ompix_chan_comm_t* */
    opal_hash_table_t chans;       /* channel request -> OMPIX_CHAN_KIND_* */
    opal_hash_table_t kept;        /* req_in of a failed bind -> its own req_free */
    volatile int32_t num_binds;    /* binds in progress (the progress callback) */
    volatile int32_t num_watched;  /* channels of slack > 1 (mpiext_chan_wait.c) */
    const mca_pml_chan_api_t *engine;
    mca_common_ompix_reqfn_layer_t reqfn; /* our test/wait layer (mpiext_chan_wait.c) */
    bool wrapped;
    bool initialized;
} ompix_chan_global_t;

extern ompix_chan_global_t ompix_chan_global;

/* mpiext_chan_global.c */
int ompix_chan_global_init(void);
ompix_chan_comm_t *ompix_chan_comm_get(ompi_communicator_t *comm);
int ompix_chan_next_tag(ompix_chan_comm_t *cs);
void ompix_chan_add_locked(ompi_request_t *chan, void *kind);
void *ompix_chan_kind(ompi_request_t *req);
void ompix_chan_remove(ompi_request_t *req);

/* mpiext_chan_engine.c */
const mca_pml_chan_api_t *ompix_chan_engine_find(void);

/* mpiext_chan_check.c */
int ompix_chan_error(ompi_communicator_t *comm, int rc, const char *func, const char *why);
int ompix_chan_state_check(const char *func);
int ompix_chan_read_increment(ompi_info_t *info, long *increment);
int ompix_chan_check_bind_args(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                               const int slacks[], MPI_Info infos[], const char *func);
void ompix_chan_outputs_null(int n, MPI_Request reqs_out[]);
int ompix_chan_bind_entry(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                          const int slacks[], bool need_slacks, MPI_Info infos[],
                          bool nonblocking, const char *func);
/* The same for a nonblocking bind from Fortran: each channel's Fortran
 * handle is stored into reqs_out_f[i] when its bind completes (reqs_out is
 * the caller's scratch, not written after the call). */
int ompix_chan_ibind_entry_f(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                             MPI_Fint reqs_out_f[], const int slacks[], bool need_slacks,
                             MPI_Info infos[], const char *func);

/* mpiext_chan_describe.c */
int ompix_chan_describe(ompi_request_t *req, mca_pml_chan_reqinfo_t *info, const char **why);

/* mpiext_chan_signature.c */
void ompix_chan_sig_make(ompi_datatype_t *type, size_t count, uint64_t limit,
                         ompix_chan_sig_t *sig);
int ompix_chan_sig_check(const ompix_chan_wire_offer_t *w, const ompix_chan_sig_run_t *runs,
                         uint64_t recv_bytes, ompi_datatype_t *type, size_t count);

/* mpiext_chan_bind.c */
int ompix_chan_bind(int n, MPI_Request reqs_in[], MPI_Request reqs_out[], const int slacks[],
                    MPI_Info infos[], bool nonblocking, MPI_Fint reqs_out_f[], const char *func);
int ompix_chan_progress(void);

/* mpiext_chan_fallback.c */
int ompix_chan_fb_create(const mca_pml_chan_spec_t *spec, int data_tag, int user_tag,
                         ompi_request_t **chan);
int ompix_chan_fb_create_null(int slack, ompi_request_t **chan);
void ompix_chan_fb_settle(ompix_chan_fb_t *fb);
void ompix_chan_fb_hold(ompix_chan_fb_t *fb);
int ompix_chan_fb_start(size_t count, ompi_request_t **reqs);
/* mpiext_chan_fallback_mpit.c: MPI_T's mpi_chan_fallback_{channels,starts}. */
void ompix_chan_fb_mpit_created(void);
extern volatile int64_t ompix_chan_fb_mpit_starts;
static inline void ompix_chan_fb_mpit_started(void)
{
    opal_atomic_add_fetch_64(&ompix_chan_fb_mpit_starts, 1);
}
void ompix_chan_fb_destroy(ompix_chan_fb_t *fb, bool finalizing);

/* mpiext_chan_unbind.c */
int ompix_chan_unbind_one(MPI_Request *chan, bool nonblocking);
int ompix_chan_unbind(int n, MPI_Request chans[], bool nonblocking, const char *func);
void ompix_chan_unbind_all(void);

/* mpiext_chan_wait.c */
void ompix_chan_wait_install(void);
void ompix_chan_wait_uninstall(void);
void ompix_chan_settle_array(size_t count, ompi_request_t **reqs);

END_C_DECLS

#endif /* MPIEXT_CHAN_INTERNAL_H */
