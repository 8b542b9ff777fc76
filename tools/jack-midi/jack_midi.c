/* jack-midi: a JACK MIDI client that plays a controller into the rig, for
 * the integration tests (tools/README.md, jack-midi).
 *
 *   jack_midi send DEST GAP_MS MESSAGE...
 *       connects its output port to DEST (e.g. crosspoint:desk_in) and sends
 *       each MESSAGE, hex bytes joined by '.', e.g. B0.07.7F (CC 7 = 127 on
 *       channel 1), one every GAP_MS milliseconds, then exits.
 *   jack_midi flood DEST RATE SECONDS SEED
 *       sends RATE events a second for SECONDS: random lengths (1-8 bytes,
 *       now and then a SysEx start cut short) of random bytes.
 *   jack_midi record SOURCE SECONDS
 *       connects SOURCE (e.g. crosspoint:desk_out) to its input port (SOURCE
 *       "-": waits to be connected), prints "ready", and after SECONDS
 *       prints each event it received as a line
 *       "MS HEX.HEX.HEX" (MS: milliseconds since ready, by JACK's frame
 *       clock), then "received N".
 *
 * Prints "sent N" when done and exits 0; 1 with a reason on stderr if JACK
 * or DEST cannot be reached. The server is JACK_DEFAULT_SERVER's.
 */
#include <jack/jack.h>
#include <jack/midiport.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MOST 4096
static unsigned char queue[MOST][16];
static int lengths[MOST];
static atomic_int queued = 0; /* written by main */
static atomic_int taken = 0;  /* written by process */
static jack_port_t *out, *in;
static unsigned char heard[MOST][16];
static int heardLengths[MOST];
static jack_nframes_t heardAt[MOST];
static atomic_int heardCount = 0;
static jack_client_t *client;

static int process(jack_nframes_t frames, void *arg) {
    (void)arg;
    if (in) {
        void *buffer = jack_port_get_buffer(in, frames);
        jack_nframes_t start = jack_last_frame_time(client);
        jack_midi_event_t event;
        for (uint32_t i = 0; i < jack_midi_get_event_count(buffer); i++) {
            int n = atomic_load(&heardCount);
            if (n >= MOST || jack_midi_event_get(&event, buffer, i) != 0) break;
            int length = event.size < 16 ? (int)event.size : 16;
            memcpy(heard[n], event.buffer, length);
            heardLengths[n] = length;
            heardAt[n] = start + event.time;
            atomic_store(&heardCount, n + 1);
        }
        return 0;
    }
    void *buffer = jack_port_get_buffer(out, frames);
    jack_midi_clear_buffer(buffer);
    int t = atomic_load(&taken), q = atomic_load(&queued);
    while (t < q) {
        if (jack_midi_event_write(buffer, 0, queue[t % MOST], lengths[t % MOST]) != 0) break;
        t++;
    }
    atomic_store(&taken, t);
    return 0;
}

static void sleep_ms(double ms) {
    struct timespec t = {(time_t)(ms / 1000), (long)((ms - (time_t)(ms / 1000) * 1000) * 1e6)};
    nanosleep(&t, NULL);
}

static void put(const unsigned char *bytes, int length) {
    while (atomic_load(&queued) - atomic_load(&taken) >= MOST) sleep_ms(1);
    int q = atomic_load(&queued);
    memcpy(queue[q % MOST], bytes, length);
    lengths[q % MOST] = length;
    atomic_store(&queued, q + 1);
}

static int parse(const char *text, unsigned char *bytes) {
    int n = 0;
    const char *p = text;
    while (*p && n < 16) {
        char *end;
        long b = strtol(p, &end, 16);
        if (end == p || b < 0 || b > 255) return -1;
        bytes[n++] = (unsigned char)b;
        p = *end == '.' ? end + 1 : end;
        if (*end && *end != '.') return -1;
    }
    return n;
}

/* Registers our port NAME (input or output), activates, and connects it
 * with `other` ("-": nobody, for a record that waits to be connected).
 * NULL, said why on stderr, if any step fails. */
static jack_port_t *open_port(const char *name, int input, const char *other) {
    jack_port_t *port = jack_port_register(client, name, JACK_DEFAULT_MIDI_TYPE,
                                           input ? JackPortIsInput : JackPortIsOutput, 0);
    if (!port) { fprintf(stderr, "jack-midi: cannot register a port\n"); return NULL; }
    if (input) in = port; else out = port;
    jack_set_process_callback(client, process, NULL);
    if (jack_activate(client)) { fprintf(stderr, "jack-midi: cannot activate\n"); return NULL; }
    char ours[300];
    snprintf(ours, sizeof ours, "%s:%s", jack_get_client_name(client), name);
    if (strcmp(other, "-") != 0 && (input ? jack_connect(client, other, ours) : jack_connect(client, ours, other))) {
        fprintf(stderr, "jack-midi: cannot connect %s\n", other);
        return NULL;
    }
    return port;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: jack_midi send DEST GAP_MS MESSAGE... | jack_midi flood DEST RATE SECONDS SEED"
                        " | jack_midi record SOURCE SECONDS\n");
        return 1;
    }
    jack_status_t status;
    client = jack_client_open("jack-midi", JackNoStartServer, &status);
    if (!client) { fprintf(stderr, "jack-midi: cannot open a client (status 0x%x)\n", status); return 1; }
    if (strcmp(argv[1], "record") == 0) {
        if (!open_port("in", 1, argv[2])) return 1;
        jack_nframes_t ready = jack_frame_time(client);
        double rate = jack_get_sample_rate(client);
        printf("ready\n");
        fflush(stdout);
        sleep_ms(atof(argv[3]) * 1000);
        int n = atomic_load(&heardCount);
        for (int i = 0; i < n; i++) {
            printf("%.1f ", (double)(int32_t)(heardAt[i] - ready) * 1000 / rate);
            for (int j = 0; j < heardLengths[i]; j++) printf(j ? ".%02X" : "%02X", heard[i][j]);
            printf("\n");
        }
        printf("received %d\n", n);
        jack_client_close(client);
        return 0;
    }
    if (strcmp(argv[2], "-") == 0 || !open_port("out", 0, argv[2])) return 1;
    long sent = 0;
    if (strcmp(argv[1], "send") == 0) {
        double gap = atof(argv[3]);
        for (int i = 4; i < argc; i++) {
            unsigned char bytes[16];
            int n = parse(argv[i], bytes);
            if (n <= 0) { fprintf(stderr, "jack-midi: '%s' is not hex bytes joined by '.'\n", argv[i]); return 1; }
            put(bytes, n);
            sent++;
            sleep_ms(gap);
        }
    } else if (strcmp(argv[1], "flood") == 0 && argc >= 6) {
        double rate = atof(argv[3]), seconds = atof(argv[4]);
        srand((unsigned)atoi(argv[5]));
        long total = (long)(rate * seconds);
        for (long i = 0; i < total; i++) {
            unsigned char bytes[16];
            int n = 1 + rand() % 8;
            for (int j = 0; j < n; j++) bytes[j] = (unsigned char)(rand() & 0xFF);
            if (rand() % 10 == 0) bytes[0] = 0xF0; /* a SysEx that never ends */
            put(bytes, n);
            sent++;
            if (i % 10 == 9) sleep_ms(10000.0 / rate);
        }
    } else {
        fprintf(stderr, "jack-midi: unknown mode '%s'\n", argv[1]);
        return 1;
    }
    while (atomic_load(&taken) < atomic_load(&queued)) sleep_ms(1);
    sleep_ms(50); /* a period or two for the last events to be read */
    printf("sent %ld\n", sent);
    jack_client_close(client);
    return 0;
}
