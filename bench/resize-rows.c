/* The resize cell's rows (resize.h), written when the cell ends: `cell`, one `resize` row with
 * the traces (motions, paints, captures) and the kept pictures, `cell-end`. */
#include "resize.h"
#include "pngwrite.h"

#include <sys/stat.h>

static void write_line(FILE *f, const struct line_info *l)
{
    fprintf(f, "[%d,%d,%d,%d,%d,%d,%d]", l->start, l->frame, l->interior_end, l->marker_end, l->extent, l->other,
            l->bare);
}

/* the kept pictures as PNG files in the rows' folder, thumbs/RUNID-CELL-K.png (worst first), and
 * the row's "thumbs": [[capture index, path relative to that folder], ...]; a file that cannot be
 * written is left out, with a message */
static void write_thumbs(struct rcell *rc, struct row *r)
{
    struct thumb *t = rc->cap.thumbs;
    for (int i = 1; i < THUMBS; i++) /* worst first */
        for (int j = i; j > 0 && t[j].index >= 0 && (t[j - 1].index < 0 || t[j].score > t[j - 1].score); j--) {
            struct thumb x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    const char *dir = rc->env->rows->dir ? rc->env->rows->dir : ".";
    char path[4096], rel[512], err[256];
    snprintf(path, sizeof path, "%s/thumbs", dir);
    mkdir(path, 0777);
    row_key(r, "thumbs");
    fputc('[', r->f);
    for (int i = 0, n = 0; i < THUMBS && t[i].index >= 0; i++) {
        snprintf(rel, sizeof rel, "thumbs/%s-%s-%d.png", rc->env->rows->run_id, rc->spec->name, i);
        snprintf(path, sizeof path, "%s/%s", dir, rel);
        if (png_write_rgb(path, LINE_W, LINE_H, t[i].rgb, err, sizeof err) < 0) {
            fprintf(stderr, "framesync-bench: %s: no thumbnail: %s\n", rc->spec->name, err);
            continue;
        }
        fprintf(r->f, "%s[%d,\"%s\"]", n++ ? "," : "", t[i].index, rel);
    }
    fputc(']', r->f);
}

static void write_cell_row(const struct rcell *rc)
{
    struct row r;
    row_begin(&r, rc->env->rows, "cell");
    row_str(&r, "cell", rc->spec->name);
    row_int(&r, "windows", 1);
    row_int(&r, "width", W0);
    row_int(&r, "height", H0);
    row_str(&r, "render", "core");
    row_str(&r, "pacing", "resize");
    row_str(&r, "load", "idle");
    row_end(&r);
}

/* how long the driver drove (0: it never began) */
static double drove_ms(const struct rcell *rc) { return rc->drv.t0_us ? (double)rc->drv.ran_us / 1000.0 : 0.0; }

/* the resize row's traces: motions, paints_log, captures */
static void write_traces(const struct rcell *rc, struct row *r)
{
    /* [t, w, h]: the size the pointer (or request) asked for from t */
    row_key(r, "motions");
    fputc('[', r->f);
    for (int i = 0; i < rc->drv.n; i++)
        fprintf(r->f, "%s[%.3f,%d,%d]", i ? "," : "", rcell_ms(rc, rc->drv.recs[i].t_us), rc->drv.recs[i].w,
                rc->drv.recs[i].h);
    fputc(']', r->f);
    /* [k, w, h, start, end, answers] */
    row_key(r, "paints_log");
    fputc('[', r->f);
    for (int i = 0; i < rc->npaints; i++)
        fprintf(r->f, "%s[%d,%d,%d,%.3f,%.3f,%d]", i ? "," : "", i, rc->paints[i].w, rc->paints[i].h,
                rcell_ms(rc, rc->paints[i].start_us), rcell_ms(rc, rc->paints[i].end_us), rc->paints[i].answers);
    fputc(']', r->f);
    /* [damage, sample, gx, gy, gw, gh, row, col]; a line is [start, frame, interior_end,
     * marker_end, extent, other, bare] in pixels from the window's start corner */
    row_key(r, "captures");
    fputc('[', r->f);
    int n = atomic_load(&rc->cap.n);
    for (int i = 0; i < n; i++) {
        const struct capture_rec *c = &rc->cap.recs[i];
        fprintf(r->f, "%s[%.3f,%.3f,%d,%d,%d,%d,", i ? "," : "", rcell_ms(rc, c->damage_us),
                rcell_ms(rc, c->sample_us), c->gx, c->gy, c->gw, c->gh);
        write_line(r->f, &c->row);
        fputc(',', r->f);
        write_line(r->f, &c->col);
        fputc(']', r->f);
    }
    fputc(']', r->f);
}

/* How the frames were captured: root DAMAGE and GetImage (every composited frame of an X server's
 * root), or the compositor's screen stream, with its frames, the gaps in which frames may be
 * missing, its frame rate against the output's refresh, and what a frame's time is */
static void write_capture_fields(struct row *r, const struct rcell *rc)
{
    const struct resize_capture *cp = &rc->cap;
    row_str(r, "capture_via", cp->stream ? "stream" : cp->sampler ? "sampled" : "root-damage");
    row_str(r, "input_via", rc->drv.seat_fd >= 0 ? "seat" : "xtest");
    if (rc->drv.seat_error[0])
        row_str(r, "input_error", rc->drv.seat_error);
    if (!cp->stream && !cp->sampler)
        return;
    double span_s = (double)(cp->stream_last_us - cp->stream_first_us) / 1e6;
    row_int(r, "capture_frames", cp->stream_frames);
    row_num(r, "capture_fps", span_s > 0 ? (cp->stream_frames - 1) / span_s : 0.0);
    if (cp->sampler) { /* pictures, one after another: how many failed */
        row_int(r, "capture_failures", cp->sample_failures);
        return;
    }
    row_str(r, "capture_timing", cp->recorded_times ? "recorded" : "commit");
    row_num(r, "refresh_hz", cp->refresh_mhz / 1000.0);
    row_int(r, "capture_gaps", cp->stream_gaps);
    row_num(r, "capture_gap_ms", (double)cp->stream_gap_us / 1000.0);
}

static void write_resize_row(struct rcell *rc)
{
    struct row r;
    row_begin(&r, rc->env->rows, "resize");
    row_str(&r, "cell", rc->spec->name);
    row_str(&r, "trigger", rc->rs->trigger == RT_POINTER    ? "pointer"
                           : rc->rs->trigger == RT_KEYBOARD ? "keyboard"
                                                            : "configure");
    row_int(&r, "hz", rc->rs->hz);
    row_str(&r, "form", resize_form_name(rc->rs->form));
    row_int(&r, "paint_ms", rc->rs->paint_ms);
    row_bool(&r, "slow", rc->rs->slow);
    row_bool(&r, "backdrop", !atomic_load(&rc->cap.no_backdrop));
    row_int(&r, "start_w", W0);
    row_int(&r, "start_h", H0);
    row_int(&r, "edge_px", EDGE_PX);
    if (rc->drv.seat_fd >= 0)
        row_raw(&r, "grabbed", "null"); /* the compositor's own resize: no X grab to see */
    else
        row_bool(&r, "grabbed", rc->drv.grabbed);
    write_capture_fields(&r, rc);
    row_num(&r, "drive_from", rc->drv.t0_us ? rcell_ms(rc, rc->drv.t0_us) : 0.0);
    row_num(&r, "drive_ms", drove_ms(rc));
    row_int(&r, "configures", rc->configures);
    row_int(&r, "size_changes", rc->size_changes);
    row_int(&r, "paints", rc->npaints);
    row_int(&r, "requests", rc->requests);
    row_int(&r, "answered", rc->answered);
    row_int(&r, "superseded", rc->superseded);
    row_int(&r, "exposes", rc->exposes);
    row_int(&r, "drawn", rc->drawn);
    write_traces(rc, &r);
    write_thumbs(rc, &r);
    row_end(&r);
}

void resize_write_rows(struct rcell *rc, const char *ended_by, double wall_ms, struct cell_result *res)
{
    write_cell_row(rc);
    write_resize_row(rc);
    int n = atomic_load(&rc->cap.n);
    struct row r;
    row_begin(&r, rc->env->rows, "cell-end");
    row_str(&r, "cell", rc->spec->name);
    row_str(&r, "ended_by", ended_by);
    row_str(&r, "paced_on", "resize");
    row_num(&r, "wall_ms", wall_ms);
    row_num(&r, "measured_ms", drove_ms(rc));
    row_int(&r, "frames", n);
    row_end(&r);
    res->frames = n;
    res->wall_ms = wall_ms;
    res->ended_by = ended_by;
    res->paced_on = "resize";
}
