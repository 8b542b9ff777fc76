/*
 * crosspoint-jack-tap: plays signals into JACK ports and records other ports,
 * with JACK's frame clock beside every recorded period, as a process of its
 * own. The integration tests use it where their in-process probe cannot go:
 * that probe is linked with the system's libjack (jackd2), while a client of
 * PipeWire's JACK must load PipeWire's libjack instead (`pw-jack` puts it
 * first on LD_LIBRARY_PATH), so the tests run this tool under `pw-jack`.
 *
 *   jack-tap [options] SECONDS OUTFILE
 *
 *   --name NAME          client names NAME_play and NAME_rec (default "tap")
 *   --play SIGNAL        one more play port (NAME_play:out_K), repeatable:
 *                          sine:FREQ:AMPLITUDE   a sine locked to the frame clock:
 *                                                AMPLITUDE * sin(2 pi FREQ t / rate)
 *                                                for the frame time t of each sample
 *                          dc:VALUE              a constant
 *                          code:AMPLITUDE        the frame time as a staircase:
 *                                                AMPLITUDE * (1 + t mod 2^20) / 2^20
 *                                                for the frame time t of each
 *                                                sample, so a recorder can read
 *                                                which frame it came from: 2^20
 *                                                frames are 21.8 s at 48 kHz, and
 *                                                every step is exact in float32
 *   --record N           N record ports NAME_rec:in_1..N (default 0)
 *   --connect SRC DST    connected once both clients run, repeatable
 *   --settle SECONDS     wait this long after connecting before recording
 *                        (default 0.25): a new connection can take a few
 *                        periods to carry audio (PipeWire makes links
 *                        asynchronously)
 *
 * Two clients, so a signal that goes from the player through another client
 * and back to the recorder is no feedback loop in the graph.
 *
 * It prints, on stdout, one line each:
 *   ready rate=R period=P          both clients active, every --connect made,
 *                                  the settling time over
 *   clock jack_usecs=U unix_ns=N   jack_get_time() and CLOCK_REALTIME read
 *                                  together (the closest of 20 tries)
 *   latency PORT capture=A..B playback=C..D
 *                                  the latency ranges of each port given to
 *                                  --connect, as the server reports them
 *   recording                      the first period is recorded
 * then records for SECONDS and writes OUTFILE: the text line
 *   "jack-tap rate=R channels=C frames=F periods=K overflowed=O\n"
 * then F * C float32 samples, interleaved, then K records of six unsigned
 * 64-bit integers: the period's first sample index in the recording, its
 * frame time (jack_last_frame_time), JACK's time in microseconds of that
 * frame (current_usecs of jack_get_cycle_times), the record ports whose
 * buffer changed while the period was being read (bit c for in_(c+1); see
 * record_process), and jack_get_time() when the recorder's process
 * callback began: the clock itself, where current_usecs is the backend's
 * idea of the cycle (a netjack2 slave's was up to 2 s off around a dropped
 * link, a loaded dummy server's up to 9 ms), and next_usecs of
 * jack_get_cycle_times (when JACK expects the next cycle: with current_usecs,
 * the span JACK maps a time into frames by in that cycle; 0 if unknown). Prints "done" and exits 0.
 *
 * Build: cc -O2 -o jack-tap jack_tap.c -ljack -lm
 */
#define _GNU_SOURCE
#include <jack/jack.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_PORTS 16
#define CODE_MODULUS (1u << 20)
#define MAX_CONNECTIONS 32

enum kind { SINE, DC, CODE };
struct signal_spec {
    enum kind kind;
    double frequency, amplitude;
};

static jack_client_t *player, *recorder;
static jack_port_t *play_ports[MAX_PORTS], *record_ports[MAX_PORTS];
static struct signal_spec signals[MAX_PORTS];
static int play_count, record_count;
static double sample_rate;

/* The recording, preallocated. */
static float *samples;
static uint64_t (*periods)[6];
static size_t capacity_frames, capacity_periods;
static _Atomic size_t recorded_frames, recorded_periods;
static _Atomic int recording, overflowed;

static int play_process(jack_nframes_t frames, void *argument) {
    (void)argument;
    jack_nframes_t first = jack_last_frame_time(player);
    for (int p = 0; p < play_count; p++) {
        float *out = jack_port_get_buffer(play_ports[p], frames);
        struct signal_spec *s = &signals[p];
        for (jack_nframes_t k = 0; k < frames; k++) {
            switch (s->kind) {
            case SINE: /* the phase from the frame time, exactly: (FREQ * t) mod rate */
                out[k] = (float)(s->amplitude * sin(2 * M_PI * fmod(s->frequency * (double)(jack_nframes_t)(first + k),
                                                                     sample_rate) / sample_rate));
                break;
            case DC:
                out[k] = (float)s->amplitude;
                break;
            case CODE:
                out[k] = (float)(s->amplitude * (1 + (double)((first + k) % CODE_MODULUS)) / CODE_MODULUS);
                break;
            }
        }
    }
    return 0;
}

/*
 * Records one period, and notes which ports' buffers changed meanwhile.
 *
 * Under PipeWire's JACK (0.3.65), jack_port_get_buffer on an input port with
 * one link returns the upstream client's published buffer itself, and the
 * upstream client publishes each output port's new buffer when its own cycle
 * completes. When the graph runs late, PipeWire can run this recorder while
 * the upstream client is still completing its cycle: ports read before it
 * published hold the previous cycle, ports read after hold the new one. So
 * every port is looked up again after the copy; a port whose buffer changed
 * (another buffer, or none) marks the period as read across two of the
 * upstream client's cycles. Under jackd2 the buffers do not change within a
 * cycle and the mask stays 0.
 */
static int record_process(jack_nframes_t frames, void *argument) {
    (void)argument;
    if (!atomic_load_explicit(&recording, memory_order_acquire)) return 0;
    jack_time_t entered = jack_get_time();
    size_t done = atomic_load_explicit(&recorded_frames, memory_order_relaxed);
    size_t count = atomic_load_explicit(&recorded_periods, memory_order_relaxed);
    if (done + frames > capacity_frames || count >= capacity_periods) {
        atomic_store(&overflowed, 1);
        return 0;
    }
    jack_nframes_t current_frames = 0;
    jack_time_t current_usecs = 0, next_usecs = 0;
    float period_usecs = 0;
    if (jack_get_cycle_times(recorder, &current_frames, &current_usecs, &next_usecs, &period_usecs) != 0) {
        current_frames = jack_last_frame_time(recorder);
        current_usecs = jack_frames_to_time(recorder, current_frames);
        next_usecs = 0;
    }
    periods[count][0] = done;
    periods[count][1] = current_frames;
    periods[count][2] = current_usecs;
    const float *read_from[MAX_PORTS];
    for (int c = 0; c < record_count; c++) {
        const float *in = jack_port_get_buffer(record_ports[c], frames);
        read_from[c] = in;
        for (jack_nframes_t k = 0; k < frames; k++) samples[(done + k) * (size_t)record_count + (size_t)c] = in[k];
    }
    uint64_t changed = 0;
    for (int c = 0; c < record_count; c++) {
        if (jack_port_get_buffer(record_ports[c], frames) != read_from[c]) changed |= (uint64_t)1 << c;
    }
    periods[count][3] = changed;
    periods[count][4] = entered;
    periods[count][5] = next_usecs;
    atomic_store_explicit(&recorded_periods, count + 1, memory_order_release);
    atomic_store_explicit(&recorded_frames, done + frames, memory_order_release);
    return 0;
}

static jack_client_t *open_client(const char *name) {
    jack_status_t status = 0;
    jack_client_t *client = jack_client_open(name, JackNoStartServer | JackUseExactName, &status);
    if (!client) {
        fprintf(stderr, "jack-tap: cannot open client %s (status 0x%x)\n", name, (unsigned)status);
        exit(1);
    }
    return client;
}

static int64_t realtime_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void usage(void) {
    fprintf(stderr, "usage: jack-tap [--name NAME] [--play sine:F:A|dc:V|code:A]... [--record N] "
                    "[--connect SRC DST]... [--settle SECONDS] SECONDS OUTFILE\n");
    exit(64);
}

int main(int argc, char **argv) {
    const char *name = "tap";
    const char *connections[MAX_CONNECTIONS][2];
    int connection_count = 0;
    double settle = 0.25;
    int a = 1;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        if (!strcmp(argv[a], "--name") && a + 1 < argc) {
            name = argv[++a];
        } else if (!strcmp(argv[a], "--play") && a + 1 < argc && play_count < MAX_PORTS) {
            struct signal_spec *s = &signals[play_count++];
            const char *spec = argv[++a];
            if (sscanf(spec, "sine:%lf:%lf", &s->frequency, &s->amplitude) == 2) s->kind = SINE;
            else if (sscanf(spec, "dc:%lf", &s->amplitude) == 1) s->kind = DC;
            else if (sscanf(spec, "code:%lf", &s->amplitude) == 1) s->kind = CODE;
            else usage();
        } else if (!strcmp(argv[a], "--settle") && a + 1 < argc) {
            settle = atof(argv[++a]);
            if (!(settle >= 0 && settle < 60)) usage();
        } else if (!strcmp(argv[a], "--record") && a + 1 < argc) {
            record_count = atoi(argv[++a]);
            if (record_count < 0 || record_count > MAX_PORTS) usage();
        } else if (!strcmp(argv[a], "--connect") && a + 2 < argc && connection_count < MAX_CONNECTIONS) {
            connections[connection_count][0] = argv[a + 1];
            connections[connection_count][1] = argv[a + 2];
            connection_count++;
            a += 2;
        } else {
            usage();
        }
    }
    if (argc - a != 2) usage();
    double seconds = atof(argv[a]);
    const char *path = argv[a + 1];
    if (!(seconds > 0 && seconds < 600)) usage();

    char client_name[256];
    snprintf(client_name, sizeof client_name, "%s_play", name);
    player = open_client(client_name);
    snprintf(client_name, sizeof client_name, "%s_rec", name);
    recorder = open_client(client_name);
    sample_rate = jack_get_sample_rate(player);

    for (int p = 0; p < play_count; p++) {
        char port[32];
        snprintf(port, sizeof port, "out_%d", p + 1);
        play_ports[p] = jack_port_register(player, port, JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
        if (!play_ports[p]) { fprintf(stderr, "jack-tap: cannot register %s\n", port); return 1; }
    }
    for (int c = 0; c < record_count; c++) {
        char port[32];
        snprintf(port, sizeof port, "in_%d", c + 1);
        record_ports[c] = jack_port_register(recorder, port, JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
        if (!record_ports[c]) { fprintf(stderr, "jack-tap: cannot register %s\n", port); return 1; }
    }

    /* Room for the whole take at any period size the server may switch to. */
    capacity_frames = (size_t)(seconds * sample_rate) + 8192;
    capacity_periods = capacity_frames / 16 + 64;
    samples = calloc(capacity_frames * (size_t)(record_count > 0 ? record_count : 1), sizeof(float));
    periods = calloc(capacity_periods, sizeof *periods);
    if (!samples || !periods) { fprintf(stderr, "jack-tap: out of memory\n"); return 1; }

    jack_set_process_callback(player, play_process, NULL);
    jack_set_process_callback(recorder, record_process, NULL);
    if (jack_activate(player) || jack_activate(recorder)) { fprintf(stderr, "jack-tap: cannot activate\n"); return 1; }
    for (int c = 0; c < connection_count; c++) {
        int result = jack_connect(player, connections[c][0], connections[c][1]);
        if (result != 0 && result != 17 /* EEXIST: already connected */) {
            fprintf(stderr, "jack-tap: cannot connect %s to %s (%d)\n", connections[c][0], connections[c][1], result);
            return 1;
        }
    }
    usleep((useconds_t)(settle * 1e6));
    printf("ready rate=%.0f period=%u\n", sample_rate, (unsigned)jack_get_buffer_size(recorder));

    /* The closest pair of readings of the two clocks. */
    jack_time_t best_jack = 0;
    int64_t best_unix = 0, best_spread = INT64_MAX;
    for (int i = 0; i < 20; i++) {
        int64_t before = realtime_ns();
        jack_time_t jack_now = jack_get_time();
        int64_t after = realtime_ns();
        if (after - before < best_spread) {
            best_spread = after - before;
            best_jack = jack_now;
            best_unix = before + (after - before) / 2;
        }
    }
    printf("clock jack_usecs=%llu unix_ns=%lld\n", (unsigned long long)best_jack, (long long)best_unix);
    for (int c = 0; c < connection_count; c++) {
        for (int end = 0; end < 2; end++) {
            jack_port_t *port = jack_port_by_name(player, connections[c][end]);
            if (!port) continue;
            jack_latency_range_t capture, playback;
            jack_port_get_latency_range(port, JackCaptureLatency, &capture);
            jack_port_get_latency_range(port, JackPlaybackLatency, &playback);
            printf("latency %s capture=%u..%u playback=%u..%u\n", connections[c][end], capture.min, capture.max,
                   playback.min, playback.max);
        }
    }
    fflush(stdout);

    atomic_store_explicit(&recording, 1, memory_order_release);
    while (atomic_load(&recorded_periods) == 0) usleep(1000);
    printf("recording\n");
    fflush(stdout);
    usleep((useconds_t)(seconds * 1e6));
    atomic_store_explicit(&recording, 0, memory_order_release);
    /* A callback that read `recording` as 1 finishes before we read its counts. */
    usleep(100000);
    jack_deactivate(recorder);
    jack_deactivate(player);

    size_t frames = atomic_load(&recorded_frames), count = atomic_load(&recorded_periods);
    FILE *file = fopen(path, "wb");
    if (!file) { perror("jack-tap: output"); return 1; }
    fprintf(file, "jack-tap rate=%.0f channels=%d frames=%zu periods=%zu overflowed=%d\n", sample_rate, record_count,
            frames, count, atomic_load(&overflowed));
    fwrite(samples, sizeof(float), frames * (size_t)record_count, file);
    fwrite(periods, sizeof *periods, count, file);
    if (fclose(file) != 0) { perror("jack-tap: output"); return 1; }
    jack_client_close(recorder);
    jack_client_close(player);
    printf("done frames=%zu periods=%zu\n", frames, count);
    return 0;
}
