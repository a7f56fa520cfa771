/* Frames rendered with Mesa OpenGL (llvmpipe on Xvfb): glClear in the frame colour, then
 * eglSwapBuffers, which the software rasteriser turns into a PutImage of the whole window, as
 * most real applications' frames reach the server.  EGL's xcb platform (EGL_EXT_platform_xcb)
 * lets it share the client's xcb connection, so the counter change that ends the update is
 * ordered after the swap's image on the same connection. */
#include "bench.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <stdlib.h>
#include <string.h>

struct gl_painter {
    struct painter p;
    struct client *cl;
    EGLDisplay dpy;
    EGLContext ctx;
    EGLSurface surf[BENCH_MAX_WINDOWS];
    int nsurf;
};

static void gl_paint(struct painter *p, int win, uint32_t rgb)
{
    struct gl_painter *gp = (struct gl_painter *)p;
    eglMakeCurrent(gp->dpy, gp->surf[win], gp->surf[win], gp->ctx);
    glClearColor((float)((rgb >> 16) & 0xff) / 255.0f, (float)((rgb >> 8) & 0xff) / 255.0f,
                 (float)(rgb & 0xff) / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    eglSwapBuffers(gp->dpy, gp->surf[win]);
}

static void gl_destroy(struct painter *p)
{
    struct gl_painter *gp = (struct gl_painter *)p;
    if (gp->dpy != EGL_NO_DISPLAY) {
        eglMakeCurrent(gp->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        for (int i = 0; i < gp->nsurf; i++)
            eglDestroySurface(gp->dpy, gp->surf[i]);
        if (gp->ctx != EGL_NO_CONTEXT)
            eglDestroyContext(gp->dpy, gp->ctx);
        eglTerminate(gp->dpy);
    }
    free(gp);
}

/* a config whose native visual is the windows' (the root visual): EGL draws into them as they are */
static EGLConfig find_config(EGLDisplay dpy, xcb_visualid_t visual)
{
    const EGLint want[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                           EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig configs[256];
    EGLint n = 0;
    if (!eglChooseConfig(dpy, want, configs, 256, &n))
        return NULL;
    for (int i = 0; i < n; i++) {
        EGLint id = 0;
        eglGetConfigAttrib(dpy, configs[i], EGL_NATIVE_VISUAL_ID, &id);
        if ((xcb_visualid_t)id == visual)
            return configs[i];
    }
    return NULL;
}

static struct painter *fail(struct gl_painter *gp, char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "OpenGL (EGL on xcb): %s (EGL error 0x%x)", what, (unsigned)eglGetError());
    gl_destroy(&gp->p);
    return NULL;
}

struct painter *painter_gl(struct client *cl, char *err, size_t errlen)
{
    struct gl_painter *gp = calloc(1, sizeof *gp);
    gp->cl = cl;
    gp->dpy = EGL_NO_DISPLAY;
    gp->ctx = EGL_NO_CONTEXT;
    gp->p = (struct painter){.name = "gl", .paint = gl_paint, .destroy = gl_destroy};
    const char *ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    PFNEGLCREATEPLATFORMWINDOWSURFACEEXTPROC create_surface =
        (PFNEGLCREATEPLATFORMWINDOWSURFACEEXTPROC)eglGetProcAddress("eglCreatePlatformWindowSurfaceEXT");
    if (!ext || !strstr(ext, "EGL_EXT_platform_xcb") || !get_display || !create_surface)
        return fail(gp, err, errlen, "EGL_EXT_platform_xcb is not available");
    xcb_connection_t *c = client_conn(cl);
    xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    const EGLint attrs[] = {EGL_PLATFORM_XCB_SCREEN_EXT, 0, EGL_NONE};
    gp->dpy = get_display(EGL_PLATFORM_XCB_EXT, c, attrs);
    if (gp->dpy == EGL_NO_DISPLAY || !eglInitialize(gp->dpy, NULL, NULL)) {
        gp->dpy = EGL_NO_DISPLAY;
        return fail(gp, err, errlen, "cannot initialise the display");
    }
    if (!eglBindAPI(EGL_OPENGL_API))
        return fail(gp, err, errlen, "no desktop OpenGL");
    EGLConfig config = find_config(gp->dpy, s->root_visual);
    if (!config)
        return fail(gp, err, errlen, "no config for the root visual");
    gp->ctx = eglCreateContext(gp->dpy, config, EGL_NO_CONTEXT, NULL);
    if (gp->ctx == EGL_NO_CONTEXT)
        return fail(gp, err, errlen, "cannot create a context");
    for (int i = 0; i < client_nwindows(cl); i++) {
        xcb_window_t id = client_window(cl, i)->id;
        gp->surf[i] = create_surface(gp->dpy, config, &id, NULL);
        if (gp->surf[i] == EGL_NO_SURFACE)
            return fail(gp, err, errlen, "cannot create a window surface");
        gp->nsurf++;
        eglMakeCurrent(gp->dpy, gp->surf[i], gp->surf[i], gp->ctx);
        eglSwapInterval(gp->dpy, 0); /* no throttling of its own: the compositor paces it */
        glDisable(GL_DITHER);        /* the frame colour must arrive exact */
    }
    return &gp->p;
}
