/* The window manager's start-up on its connection (wmstart.c): the check window and a first server
 * timestamp, then SubstructureRedirect, _NET_SUPPORTING_WM_CHECK, _NET_SUPPORTED, the windows
 * already there, and WM_S0 announced with MANAGER (cm-only: SubstructureNotify and no claim). */
#ifndef FAKEWM_WMSTART_H
#define FAKEWM_WMSTART_H

void wm_start(void);

#endif
