/* clients/glfw.conf and glfw-still.conf: a GLFW 3 window, our own program (GLFW ships no demo
 * binary in Debian).  `glfw-demo animate` clears the window to a colour that changes every frame,
 * about 60 times a second, for ever; `glfw-demo still` draws once and then only when GLFW reports
 * that the window needs it (its refresh callback: an expose or a resize).  Built by the Makefile
 * only where libglfw3-dev is installed. */
#include <GLFW/glfw3.h>

#include <stdio.h>
#include <string.h>

static void draw(GLFWwindow *win, double t)
{
    int w, h;
    glfwGetFramebufferSize(win, &w, &h);
    glViewport(0, 0, w, h);
    double phase = t - (double)(long)t; /* 0..1 once a second */
    glClearColor((float)phase, 0.3f, (float)(1.0 - phase), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glfwSwapBuffers(win);
}

static void on_refresh(GLFWwindow *win)
{
    draw(win, 0.25);
}

int main(int argc, char **argv)
{
    int animate = argc == 2 && !strcmp(argv[1], "animate");
    if (argc != 2 || (!animate && strcmp(argv[1], "still"))) {
        fprintf(stderr, "usage: glfw-demo animate|still\n");
        return 2;
    }
    if (!glfwInit())
        return 1;
    GLFWwindow *win = glfwCreateWindow(320, 200, "framesync glfw", NULL, NULL);
    if (!win) {
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(win);
    glfwSwapInterval(0); /* Xvfb has no vertical blank: the wait below paces the frames */
    if (!animate)
        glfwSetWindowRefreshCallback(win, on_refresh);
    on_refresh(win);
    while (!glfwWindowShouldClose(win)) {
        if (animate) {
            draw(win, glfwGetTime());
            glfwWaitEventsTimeout(1.0 / 60);
        } else {
            glfwWaitEvents();
        }
    }
    glfwDestroyWindow(win);
    glfwTerminate();
    return 0;
}
