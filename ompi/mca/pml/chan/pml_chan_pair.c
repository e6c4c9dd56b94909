/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Credits carried by the data flowing back (issue 25).  A synchronous
 * send n completes only once receive n started, which the receiver tells
 * the sender with a credit (the count of receives started,
 * pml_chan_ring.c).  Off-node (AM, TAG paths) a credit is a message, so a
 * synchronous halo exchange (A to B and B to A every iteration) cost four
 * messages per pair and iteration: two data, two credits.
 *
 * Standard-mode channels (MPI_Send_init, MPI_Bsend_init) use the same
 * credits and slots ahead, their sends done once written.
 *
 * Two things make it two.  The receiver of a synchronous channel has 2K
 * slots (pml_chan_bind.c:mca_pml_chan_end_plan) and its sender writes
 * message n once receive n - K started (credits + K > n), so that the
 * slot's previous message, n - 2K, was taken; the send is done only once
 * its own receive started (credits > n; pml_chan_ring.c:
 * mca_pml_chan_ring_send).  Then the data of both directions can leave at
 * their starts, and a receive end's credits ride on the next message of a
 * send end of the same process toward the same peer process (its
 * "carrier", paired here at connect): the receive's start only marks its
 * credits owed (mca_pml_chan_ring_recv_post) and the carrier's next write
 * takes them (mca_pml_chan_ring_carry: the AM header's carrying form, 16
 * bytes after a TAG message's data), landing in the sender's credits word
 * when the message arrives (the AM handler; the TAG receive, posted K
 * ahead for that: pml_chan_path_tag.c).  Credits still owed go as a
 * message of their own at the end's next look (Wait/Test) or progress
 * (mca_pml_chan_ring_recv_poll), and before its "gone"; a start that only
 * owes them leaves the end in the busy list for that.  So they never wait
 * for a reverse send that is not started (MPI progress runs in every
 * blocking call and every Test), and in a halo whose receives start
 * before its sends (the order bundles and the usual codes use) every
 * credit rides.
 *
 * Pairs: a receive end with credits whose ring has slots ahead, and a
 * synchronous or standard-mode send end writing ahead (credits, slots
 * ahead: pml_chan_bind.c:mca_pml_chan_end_flow), both on a path whose credits are
 * messages and whose writes carry (the table's `carries`: AM and TAG, not
 * the mapped ring, where a credit is one store, nor the large path, whose
 * sends write into the user's buffer and never ahead), toward the same
 * process (any communicator: the credits word's address travels, so the
 * other side needs no pairing), without threads (the carrier would take
 * its creditor's state without its lock).  First come, first paired:
 * several channels between one pair of processes pair one receive with
 * one send each.  Unbinding either end unpairs both, sending the owed
 * credits first, and the survivor pairs again with a free partner if
 * there is one.  Under c->lock.
 */
#include "ompi_config.h"

#include "pml_chan_path.h"

/* Whether receive end r's credits may ride on send end s's data. */
static bool mca_pml_chan_pair_fits(const mca_pml_chan_end_t *r, const mca_pml_chan_end_t *s)
{
    return !r->is_send && s->is_send && r->bound && s->bound && r->credits && r->ahead > 0 &&
           s->credits && s->ahead > 0 && r->path->carries && s->path->carries &&
           r->proc == s->proc && NULL == r->carrier && NULL == s->creditor &&
           !opal_using_threads();
}

/* A partner for `end`, just connected or left alone (bound, in the
 * component's ends): the first free end that fits. */
void mca_pml_chan_pair_find(mca_pml_chan_end_t *end)
{
    opal_list_item_t *item;

    if ((end->is_send ? NULL != end->creditor : NULL != end->carrier) || opal_using_threads()) {
        return;
    }
    OPAL_LIST_FOREACH(item, &mca_pml_chan_component.ends, opal_list_item_t) {
        mca_pml_chan_end_t *other = (mca_pml_chan_end_t *)
            ((char *) item - offsetof(mca_pml_chan_end_t, ends_item));
        mca_pml_chan_end_t *r = end->is_send ? other : end, *s = end->is_send ? end : other;
        if (other != end && mca_pml_chan_pair_fits(r, s)) {
            r->carrier = s;
            s->creditor = r;
            MCA_PML_CHAN_VERBOSE(20, "credits of the receive end from rank %d tag %d ride on "
                                 "the send end's data (tag %d)", r->spec.req.peer,
                                 r->spec.req.tag, s->spec.req.tag);
            return;
        }
    }
}

/* `end` goes (unbind: `flush`; finalize: no message): the pair's link is
 * cut and credits owed go now (a sender may wait for them).  Returns the
 * partner left alone (NULL: none), for mca_pml_chan_pair_find once `end`
 * left the list. */
mca_pml_chan_end_t *mca_pml_chan_pair_drop(mca_pml_chan_end_t *end, bool flush)
{
    mca_pml_chan_end_t *r = end->is_send ? end->creditor : end;
    mca_pml_chan_end_t *s = end->is_send ? end : end->carrier;

    if (NULL == r || NULL == s) {
        return NULL;
    }
    r->carrier = NULL;
    s->creditor = NULL;
    if (flush && r->credit_owed) {
        mca_pml_chan_ring_credit_send(r);
    }
    return end->is_send ? r : s;
}
