/* clients/allegro.conf and allegro-still.conf: an Allegro 5 display, our own program (Debian
 * ships Allegro 5's examples as source only).  `allegro-demo animate` clears the display to a
 * colour that changes on each tick of a 60 Hz ALLEGRO_TIMER, for ever; `allegro-demo still` draws
 * once and then only on ALLEGRO_EVENT_DISPLAY_EXPOSE or _RESIZE.  Built by the Makefile only
 * where liballegro5-dev is installed. */
#include <allegro5/allegro.h>

#include <stdio.h>
#include <string.h>

static void draw(ALLEGRO_DISPLAY *display, double t)
{
    double phase = t - (double)(long)t; /* 0..1 once a second */
    al_set_target_backbuffer(display);
    al_clear_to_color(al_map_rgb_f((float)phase, 0.3f, (float)(1.0 - phase)));
    al_flip_display();
}

static ALLEGRO_EVENT_QUEUE *event_queue(ALLEGRO_DISPLAY *display, ALLEGRO_TIMER *timer)
{
    ALLEGRO_EVENT_QUEUE *queue = al_create_event_queue();
    if (!queue)
        return NULL;
    al_register_event_source(queue, al_get_display_event_source(display));
    if (timer)
        al_register_event_source(queue, al_get_timer_event_source(timer));
    return queue;
}

static void run(ALLEGRO_DISPLAY *display, ALLEGRO_EVENT_QUEUE *queue)
{
    for (;;) {
        ALLEGRO_EVENT ev;
        al_wait_for_event(queue, &ev);
        if (ev.type == ALLEGRO_EVENT_DISPLAY_CLOSE)
            return;
        if (ev.type == ALLEGRO_EVENT_DISPLAY_RESIZE)
            al_acknowledge_resize(display);
        if (ev.type == ALLEGRO_EVENT_TIMER)
            draw(display, al_get_time());
        else if (ev.type == ALLEGRO_EVENT_DISPLAY_EXPOSE || ev.type == ALLEGRO_EVENT_DISPLAY_RESIZE)
            draw(display, 0.25);
    }
}

int main(int argc, char **argv)
{
    int animate = argc == 2 && !strcmp(argv[1], "animate");
    if (argc != 2 || (!animate && strcmp(argv[1], "still"))) {
        fprintf(stderr, "usage: allegro-demo animate|still\n");
        return 2;
    }
    if (!al_init())
        return 1;
    al_set_new_display_flags(ALLEGRO_WINDOWED | ALLEGRO_RESIZABLE);
    ALLEGRO_DISPLAY *display = al_create_display(320, 200);
    if (!display)
        return 1;
    al_set_window_title(display, "framesync allegro");
    ALLEGRO_TIMER *timer = animate ? al_create_timer(1.0 / 60) : NULL;
    ALLEGRO_EVENT_QUEUE *queue = event_queue(display, timer);
    if (!queue || (animate && !timer))
        return 1;
    draw(display, 0.25);
    if (timer)
        al_start_timer(timer);
    run(display, queue);
    if (timer)
        al_destroy_timer(timer);
    al_destroy_event_queue(queue);
    al_destroy_display(display);
    return 0;
}
