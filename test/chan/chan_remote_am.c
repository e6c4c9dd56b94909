/*
 * ompix-test: np=2 tls=tcp,net pml=ob1,ucx timeout=90 paths="chan:am" mca="pml_chan_remote am"
 *
 * chan_remote.c on pml/chan's active-message path (pml_chan_remote am):
 * the same channels, orders and checks over TCP, each message one active
 * message into the receiver's slot instead of a tag-matched one into a
 * posted receive.
 */
#include "chan_remote.c"
