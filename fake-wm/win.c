/* The windows fake-wm knows (win.h): the toplevels in stacking order, and its own windows. */
#include "win.h"

#include "log.h"
#include "state.h"

#include <stdlib.h>
#include <string.h>

struct win **stack;
int nstack;
static int stack_cap;

const char *form_name(enum form f)
{
    switch (f) {
    case FORM_NONE: return "none";
    case FORM_BASIC: return "basic";
    case FORM_EXTENDED: return "extended";
    }
    return "?";
}

const char *origin_name(enum resize_origin o)
{
    switch (o) {
    case ORIGIN_CLIENT: return "client";
    case ORIGIN_KEYBOARD: return "keyboard";
    case ORIGIN_POINTER: return "pointer";
    }
    return "?";
}

struct win *win_find(xcb_window_t id)
{
    for (int i = 0; i < nstack; i++)
        if (stack[i]->id == id)
            return stack[i];
    return NULL;
}

static int stack_index(const struct win *w)
{
    for (int i = 0; i < nstack; i++)
        if (stack[i] == w)
            return i;
    return -1;
}

static void stack_remove(struct win *w)
{
    int i = stack_index(w);
    if (i < 0)
        return;
    memmove(&stack[i], &stack[i + 1], (size_t)(nstack - i - 1) * sizeof *stack);
    nstack--;
}

/* insert at position pos (0 = bottom) */
static void stack_insert(struct win *w, int pos)
{
    if (nstack == stack_cap) {
        stack_cap = stack_cap ? stack_cap * 2 : 64;
        stack = realloc(stack, (size_t)stack_cap * sizeof *stack);
        if (!stack) {
            logmsg("out of memory");
            exit(1);
        }
    }
    if (pos < 0 || pos > nstack)
        pos = nstack;
    memmove(&stack[pos + 1], &stack[pos], (size_t)(nstack - pos) * sizeof *stack);
    stack[pos] = w;
    nstack++;
}

/* put the list in the server's order (QueryTree lists the root's children bottom to top) */
static void stack_resync(void)
{
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(X.c, xcb_query_tree(X.c, X.root), NULL);
    if (!t)
        return;
    xcb_window_t *kids = xcb_query_tree_children(t);
    int n = xcb_query_tree_children_length(t);
    int pos = 0;
    for (int i = 0; i < n; i++) {
        struct win *w = win_find(kids[i]);
        if (!w)
            continue;
        stack_remove(w);
        stack_insert(w, pos++);
    }
    free(t);
    logv("stacking order re-read from the server");
}

/* restack w directly above sibling (XCB_NONE: at the bottom) */
bool stack_place_above(struct win *w, xcb_window_t sibling)
{
    int old = stack_index(w);
    struct win *s = sibling != XCB_NONE ? win_find(sibling) : NULL;
    if (sibling != XCB_NONE && !s) {
        stack_resync(); /* a sibling we do not know: ask the server */
        return true;
    }
    stack_remove(w);
    stack_insert(w, s ? stack_index(s) + 1 : 0);
    return old != stack_index(w);
}

void stack_to_end(struct win *w, bool top)
{
    stack_remove(w);
    stack_insert(w, top ? nstack : 0);
}

struct win *win_add(xcb_window_t id, int16_t x, int16_t y, uint16_t wd, uint16_t ht,
                           uint16_t bw, bool override_redirect)
{
    struct win *w = calloc(1, sizeof *w);
    if (!w) {
        logmsg("out of memory");
        exit(1);
    }
    w->id = id;
    w->x = x;
    w->y = y;
    w->w = wd;
    w->h = ht;
    w->bw = bw;
    w->wm_w = wd;
    w->wm_h = ht;
    w->wm_x = x;
    w->wm_y = y;
    w->override_redirect = override_redirect;
    stack_insert(w, nstack);
    return w;
}

void win_free(struct win *w)
{
    stack_remove(w);
    free(w);
}

/* ---- own windows ---- */
static xcb_window_t own_windows[8];
static int nown;
void win_note_own(xcb_window_t id)
{
    if (nown < (int)(sizeof own_windows / sizeof own_windows[0]))
        own_windows[nown++] = id;
    struct win *w = win_find(id);
    if (w) {
        w->own = true;
        w->managed = false;
    }
}

bool win_is_own(xcb_window_t id)
{
    for (int i = 0; i < nown; i++)
        if (own_windows[i] == id)
            return true;
    return false;
}
