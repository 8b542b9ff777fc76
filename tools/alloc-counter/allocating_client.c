/*
 * A JACK client that allocates in its process callback: the negative control
 * for alloc_counter (the counter must see these allocations).
 * Build: cc -O2 -o allocating_client allocating_client.c -ljack
 * Run:   allocating_client SECONDS   (on $JACK_DEFAULT_SERVER)
 */
#include <jack/jack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile size_t sink;

static int process(jack_nframes_t frames, void *argument) {
    (void)argument;
    char *scratch = malloc(frames * sizeof(float));
    if (scratch) {
        memset(scratch, 1, frames);
        sink += (size_t)scratch[frames / 2];
        free(scratch);
    }
    return 0;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 1;
    jack_client_t *client = jack_client_open("allocating_client", JackNoStartServer, NULL);
    if (!client) { fprintf(stderr, "no JACK server\n"); return 1; }
    jack_set_process_callback(client, process, NULL);
    if (jack_activate(client)) { fprintf(stderr, "cannot activate\n"); return 1; }
    usleep((useconds_t)(seconds * 1e6));
    jack_deactivate(client);
    jack_client_close(client);
    return 0;
}
