/* weston-capture WINDOW X Y W H: the region of an X window as weston shows it, as a binary PPM on
 * standard output (the screen-capture command of compositors/weston.conf, harness/capture.h).
 *
 * Under weston 10 X coordinates are not where a window is shown: its X window manager
 * (xwayland/window-manager.c) keeps every frame window at 0,0 of the X root, and desktop-shell
 * places the frame's surface on the output by itself (a client X says is at 38,59 is shown at
 * 306,227).  So the region is found through the window, not its coordinates:
 *   - on the X server: the window's top-level frame (its ancestor that is a child of the root), the
 *     region's offset in that frame, and the window's name (_NET_WM_NAME, else WM_NAME), which
 *     weston labels the frame's surface with ("top-level window 'NAME'", weston_wm_window_get_label);
 *   - on weston: where that surface's view is, from `weston-debug scene-graph` (weston --debug), and
 *     the views stacked above it (listed before it);
 *   - the picture: `weston-screenshooter` (weston --debug) writes the whole output as a PNG, in a
 *     folder of its own (its name is the second it was taken in), which is cropped to the region.
 * A window whose name no view has is not shown: the region comes out black (no frame colour of the
 * suite's is black).  Of several views with its name in one place (weston 10 keeps the surface of
 * an unmapped window's first mapping below the next one), the topmost is what shows there, as GetImage
 * of an X root gives the topmost window.  Views with its name in different places, or another view
 * stacked above it over the region, are an error, never a guess: what weston shows there is not the
 * window's.  (weston 10 keeps showing some windows of X clients that are gone: the harness and the
 * scripted client give every window a name of its own, so such a ghost is never taken for it.)
 * WINDOW 0 means the region is in the output's coordinates (the whole screen, for a snapshot).
 *
 * Exit status 0 with the PPM, 1 with a message on stderr. */
#include <dirent.h>
#include <errno.h>
#include <png.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xcb/xcb.h>

#define MAX_VIEWS 64

struct rect { int x0, y0, x1, y1; };   /* [x0, x1) x [y0, y1) */

struct view {
    char label[256];     /* the X window's name, for a top-level X window; "" for other views */
    char line[300];      /* its line of the scene graph, for a message */
    struct rect pos;
};

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "weston-capture: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

static int run(const char *dir, char *const argv[], const char *out_path)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir) < 0)
            _exit(126);
        if (out_path && !freopen(out_path, "w", stdout))
            _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- the X side: the frame, the offset in it, the name ---- */

static char *window_name(xcb_connection_t *c, xcb_window_t w)
{
    xcb_intern_atom_reply_t *utf8 = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, 11, "UTF8_STRING"), NULL);
    xcb_intern_atom_reply_t *net = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, 12, "_NET_WM_NAME"), NULL);
    char *name = NULL;
    xcb_atom_t props[2] = {net ? net->atom : XCB_NONE, XCB_ATOM_WM_NAME};
    xcb_atom_t types[2] = {utf8 ? utf8->atom : XCB_NONE, XCB_ATOM_STRING};
    for (int i = 0; i < 2 && !name; i++) {
        xcb_get_property_reply_t *p =
            xcb_get_property_reply(c, xcb_get_property(c, 0, w, props[i], types[i], 0, 64), NULL);
        int len = p ? xcb_get_property_value_length(p) : 0;
        if (len > 0)
            name = strndup(xcb_get_property_value(p), (size_t)len);
        free(p);
    }
    free(utf8);
    free(net);
    return name;
}

/* The child of the root that holds w (w itself when it is one); XCB_NONE when w is gone. */
static xcb_window_t top_level(xcb_connection_t *c, xcb_window_t w, xcb_window_t root)
{
    for (;;) {
        xcb_query_tree_reply_t *t = xcb_query_tree_reply(c, xcb_query_tree(c, w), NULL);
        if (!t)
            return XCB_NONE;
        xcb_window_t parent = t->parent;
        free(t);
        if (parent == root || parent == XCB_NONE)
            return w;
        w = parent;
    }
}

static int root_position(xcb_connection_t *c, xcb_window_t w, xcb_window_t root, int *x, int *y)
{
    xcb_translate_coordinates_reply_t *t =
        xcb_translate_coordinates_reply(c, xcb_translate_coordinates(c, w, root, 0, 0), NULL);
    if (!t)
        return -1;
    *x = t->dst_x;
    *y = t->dst_y;
    free(t);
    return 0;
}

/* ---- the weston side: the scene graph ---- */

/* Reads `weston-debug scene-graph`: its views, topmost first (layers from the top, and each
 * layer's views from its top).  The number of views, or -1. */
static int read_views(const char *path, struct view *v, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024];
    int n = 0;
    bool in_view = false;
    while (fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, "\t ");
        if (!strncmp(p, "View ", 5)) {
            in_view = n < max;
            if (!in_view)
                continue;
            v[n].label[0] = 0;
            snprintf(v[n].line, sizeof v[n].line, "%.*s", (int)strcspn(p, "\n"), p);
            const char *q = strstr(p, "top-level window '");
            if (q) {
                q += strlen("top-level window '");
                const char *end = strrchr(q, '\'');
                size_t len = end && end > q ? (size_t)(end - q) : 0;
                snprintf(v[n].label, sizeof v[n].label, "%.*s", (int)len, q);
            }
            v[n].pos = (struct rect){0, 0, 0, 0};
            n++;
        } else if (in_view && !strncmp(p, "position:", 9)) {
            struct rect *r = &v[n - 1].pos;
            if (sscanf(p, "position: (%d, %d) -> (%d, %d)", &r->x0, &r->y0, &r->x1, &r->y1) != 4)
                *r = (struct rect){0, 0, 0, 0};
        } else if (!strncmp(p, "Layer ", 6) || !strncmp(p, "Output ", 7)) {
            in_view = false;
        }
    }
    fclose(f);
    return n;
}

static bool overlap(struct rect a, struct rect b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* ---- the picture ---- */

/* The PNG weston-screenshooter wrote into dir (its only .png) as 8-bit RGB rows; 0, or -1. */
static int read_png(const char *dir, uint8_t **rgb, int *w, int *h)
{
    char path[768] = "";
    DIR *dp = opendir(dir);
    struct dirent *e;
    while (dp && (e = readdir(dp)))
        if (strlen(e->d_name) > 4 && !strcmp(e->d_name + strlen(e->d_name) - 4, ".png"))
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (dp)
        closedir(dp);
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!path[0] || !png_image_begin_read_from_file(&im, path))
        return -1;
    im.format = PNG_FORMAT_RGB;
    *rgb = malloc(PNG_IMAGE_SIZE(im));
    if (!*rgb || !png_image_finish_read(&im, NULL, *rgb, 0, NULL)) {
        png_image_free(&im);
        return -1;
    }
    *w = (int)im.width;
    *h = (int)im.height;
    return 0;
}

/* Empties and removes the folder of one capture (it holds only what the two programs wrote). */
static void remove_dir(const char *dir)
{
    DIR *dp = opendir(dir);
    struct dirent *e;
    char path[768];
    while (dp && (e = readdir(dp)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (dp)
        closedir(dp);
    if (rmdir(dir) < 0)
        fprintf(stderr, "weston-capture: could not remove %s: %s\n", dir, strerror(errno));
}

#define NOT_SHOWN 2

/* Where the window's region is on the output: into *out (output coordinates); 0, NOT_SHOWN when
 * weston has no view of the window, or 1 with a message (via fail). */
static int locate(uint32_t window, int x, int y, int w, int h, const char *scene, struct rect *out)
{
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c))
        return fail("cannot open the X display named by DISPLAY", NULL);
    xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    xcb_window_t frame = top_level(c, window, root);
    int fx = 0, fy = 0;
    char *name = frame ? window_name(c, window) : NULL;
    int rc = frame ? root_position(c, frame, root, &fx, &fy) : -1;
    xcb_disconnect(c);
    if (rc < 0 || !name) {
        free(name);
        return fail("the X window is gone or has no name", NULL);
    }
    struct view views[MAX_VIEWS];
    int n = read_views(scene, views, MAX_VIEWS), found = -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(views[i].label, name))
            continue;
        if (found >= 0 && !memcmp(&views[i].pos, &views[found].pos, sizeof views[i].pos))
            continue; /* an older surface of it where it is (weston 10 keeps one after an unmap and a map):
                       * the topmost, found first, is what shows there */
        if (found >= 0) {
            char both[700];
            snprintf(both, sizeof both, "%s at %d,%d; %s at %d,%d", views[found].line, views[found].pos.x0,
                     views[found].pos.y0, views[i].line, views[i].pos.x0, views[i].pos.y0);
            fail("two of weston's views in different places are labelled with the window's name", both);
            free(name);
            return 1;
        }
        found = i;
    }
    if (found < 0) { /* weston shows no surface of it (not mapped, or its first buffer not committed yet) */
        fprintf(stderr, "weston-capture: no view of weston's scene graph is labelled '%s': not shown\n", name);
        free(name);
        return NOT_SHOWN;
    }
    free(name);
    struct rect frame_on_output = views[found].pos;
    *out = (struct rect){frame_on_output.x0 + x - fx, frame_on_output.y0 + y - fy, 0, 0};
    out->x1 = out->x0 + w;
    out->y1 = out->y0 + h;
    for (int i = 0; i < found; i++)
        if (views[i].pos.x1 > views[i].pos.x0 && overlap(views[i].pos, *out)) {
            char what[400];
            snprintf(what, sizeof what, "%s at %d,%d-%d,%d", views[i].line, views[i].pos.x0, views[i].pos.y0,
                     views[i].pos.x1, views[i].pos.y1);
            return fail("a view stacked above the window covers the region", what);
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 6)
        return fail("usage: weston-capture WINDOW X Y W H (a binary PPM of that region of the X window as weston "
                    "shows it; WINDOW 0: the region in output coordinates)", NULL);
    uint32_t window = (uint32_t)strtoul(argv[1], NULL, 0);
    int x = atoi(argv[2]), y = atoi(argv[3]), w = atoi(argv[4]), h = atoi(argv[5]);
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
        return fail("an empty or too large region", NULL);
    const char *tmp = getenv("TMPDIR");
    char d[512];
    snprintf(d, sizeof d, "%s/weston-capture-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(d))
        return fail("cannot make a temporary folder", strerror(errno));
    struct rect region = {x, y, x + w, y + h};
    int rc = 0;
    if (window) {
        char scene[600];
        snprintf(scene, sizeof scene, "%s/scene-graph.txt", d);
        char *dbg[] = {"weston-debug", "scene-graph", NULL};
        if (run(d, dbg, scene) != 0)
            rc = fail("`weston-debug scene-graph` failed (is weston run with --debug?)", NULL);
        else
            rc = locate(window, x, y, w, h, scene, &region);
        unlink(scene);
    }
    if (rc == NOT_SHOWN) { /* black: none of the window's colours is anywhere on the output */
        remove_dir(d);
        printf("P6\n%d %d\n255\n", w, h);
        for (long i = 0; i < (long)w * h * 3; i++)
            putchar(0);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    uint8_t *rgb = NULL;
    int pw = 0, ph = 0;
    char *shot[] = {"weston-screenshooter", NULL};
    if (rc == 0 && (run(d, shot, "/dev/null") != 0 || read_png(d, &rgb, &pw, &ph) < 0))
        rc = fail("`weston-screenshooter` wrote no picture (is weston run with --debug?)", NULL);
    remove_dir(d);
    if (rc)
        return rc;
    if (region.x0 < 0 || region.y0 < 0 || region.x1 > pw || region.y1 > ph) {
        free(rgb);
        return fail("the window's region is not all on the output", NULL);
    }
    printf("P6\n%d %d\n255\n", w, h);
    for (int j = region.y0; j < region.y1; j++)
        fwrite(rgb + ((size_t)j * (size_t)pw + (size_t)region.x0) * 3, 3, (size_t)w, stdout);
    free(rgb);
    return fflush(stdout) == 0 ? 0 : 1;
}
