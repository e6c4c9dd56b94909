/*
 * ompix-test: np=2 tls=tcp pml=ob1,ucx timeout=90 mca="pml_chan_remote am"
 *
 * chan_ready_slack.c on pml/chan's active-message path (pml_chan_remote
 * am): the same streams over TCP, each message one active message (the
 * short form up to 64 bytes, which puts unaligned sizes right before the
 * slot's sequence word; the header form above) instead of a tag message.
 */
#include "chan_ready_slack.c"
