/* The RandR 1.5 monitors of a screen (monitors.h). */
#include "monitors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <xcb/randr.h>
#include <xcb/xcbext.h>

bool monitors_supported(xcb_connection_t *c, char *why, size_t len)
{
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_randr_id);
    if (!ext || !ext->present) {
        snprintf(why, len, "the X server has no RANDR extension");
        return false;
    }
    xcb_randr_query_version_reply_t *v = xcb_randr_query_version_reply(c, xcb_randr_query_version(c, 1, 5), NULL);
    if (!v) {
        snprintf(why, len, "RANDR QueryVersion failed");
        return false;
    }
    bool ok = v->major_version > 1 || (v->major_version == 1 && v->minor_version >= 5);
    if (!ok)
        snprintf(why, len, "the X server has RANDR %u.%u, and monitors are RANDR 1.5", v->major_version,
                 v->minor_version);
    free(v);
    return ok;
}

static int by_position(const void *a, const void *b)
{
    const struct monitor_rect *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->y < q->y ? -1 : p->y > q->y;
}

int monitors_read(xcb_connection_t *c, xcb_window_t root, bool active, struct monitor_rect *out, int max)
{
    xcb_randr_get_monitors_reply_t *r =
        xcb_randr_get_monitors_reply(c, xcb_randr_get_monitors(c, root, active ? 1 : 0), NULL);
    if (!r)
        return -1;
    int n = 0;
    for (xcb_randr_monitor_info_iterator_t it = xcb_randr_get_monitors_monitors_iterator(r); it.rem && n < max;
         xcb_randr_monitor_info_next(&it))
        out[n++] = (struct monitor_rect){.name = it.data->name, .x = it.data->x, .y = it.data->y,
                                         .w = it.data->width, .h = it.data->height, .noutputs = it.data->nOutput};
    free(r);
    qsort(out, (size_t)n, sizeof out[0], by_position);
    return n;
}

bool monitors_is_own(xcb_connection_t *c, xcb_atom_t name)
{
    xcb_get_atom_name_reply_t *r = xcb_get_atom_name_reply(c, xcb_get_atom_name(c, name), NULL);
    if (!r)
        return false;
    size_t prefix = strlen(MONITORS_OWN_PREFIX);
    bool own = (size_t)xcb_get_atom_name_name_length(r) >= prefix &&
               !memcmp(xcb_get_atom_name_name(r), MONITORS_OWN_PREFIX, prefix);
    free(r);
    return own;
}

xcb_void_cookie_t monitors_set(xcb_connection_t *c, xcb_window_t root, const xcb_randr_monitor_info_t *m)
{
    static const xcb_protocol_request_t request = {
        .count = 2, .ext = &xcb_randr_id, .opcode = XCB_RANDR_SET_MONITOR, .isvoid = 1};
    xcb_randr_set_monitor_request_t fixed = {.window = root};
    struct iovec parts[4]; /* xcb_send_request writes into the two before the ones it is given */
    parts[2] = (struct iovec){.iov_base = &fixed, .iov_len = sizeof fixed};
    parts[3] = (struct iovec){.iov_base = (void *)m, .iov_len = sizeof *m};
    return (xcb_void_cookie_t){xcb_send_request(c, XCB_REQUEST_CHECKED, parts + 2, &request)};
}
