/*
 * crosspoint-probe: the outside half of Crosspoint's end-to-end benchmarks
 * (scripts/bench). Real JACK ports and real UDP on loopback, nothing mocked.
 *
 *   probe tone SECONDS
 *       A JACK client "xp_tone" with one output playing a 440 Hz sine at -12 dBFS.
 *
 *   probe latency OSC_PORT TRIALS
 *       Two JACK clients: "xp_dc" plays 1.0 into crosspoint:in_1, "xp_sink"
 *       records crosspoint:out_1. Each trial sets /matrix/1/1 to 0 (no fade),
 *       waits, then sends /matrix/1/1 1 0 and notes jack_get_time() just
 *       before sendto(). The sink finds the first non-zero sample; its time
 *       is the JACK time of that frame (jack_frames_to_time of the cycle's
 *       first frame plus its offset). Latency = sample time - send time; the
 *       time the sink's callback saw it is reported too. Prints one JSON line.
 *
 *   probe recall OSC_PORT TRIALS PRESET_A PRESET_B FADE
 *       The same two clients, on a serve whose presets A and B give output 1
 *       different gains from input 1. Recalls A (and waits for the fade to
 *       land), then alternately B and A: each trial waits for the scene to
 *       settle, notes the settled value of output 1, notes jack_get_time()
 *       just before sendto() of /preset/recall NAME FADE, and finds the first
 *       sample of output 1 that differs from the settled value. Latency =
 *       the time the sink's callback saw it - send time, in ms and in
 *       periods. Also counts cycles: 0 when the change is seen in the first
 *       cycle whose sink callback runs after the send (the crossfade started
 *       in the next period after receipt), 1 when a cycle later, and so on.
 *       Every recall must be answered /preset/recalled. Prints one JSON line,
 *       with every trial's latency in order (-1: not seen) in latency_ms_each.
 *
 *   probe timetag OSC_PORT TRIALS: time tags, see probe_timetag.c.
 *
 *   probe saves OSC_PORT ROUNDS SAVES
 *       Control while presets are written, on a serve with crosspoint:in_1
 *       and out_1 (the same two JACK clients as latency). Each round has two
 *       halves of the same length: first one client sends SAVES
 *       /preset/save "bench-K" (K = 0..9 in turn) back to back and waits for
 *       every reply (/preset/saved or /error); then nothing is saved for as
 *       long as that took. Through both halves, two more clients run on
 *       their own sockets and threads: one sends /ping and waits for /pong,
 *       again and again, 2 ms apart (round trip on CLOCK_MONOTONIC); the other sets
 *       /matrix/1/1 to 0, waits for output 1 to read 0, then sends
 *       /matrix/1/1 1 0 and times sendto() to the sink's callback that first
 *       sees the sample move (as in recall, with the same count of cycles:
 *       0 = the first cycle whose callback ran after the send). Prints one
 *       JSON line with both halves side by side.
 *
 *   probe rate OSC_PORT RATE SECONDS PARAMETERS: OSC only, see probe_rate.c.
 *
 * The OSC packets, the UDP socket and the clock are in probe_osc.c
 * (probe_osc.h), the rate mode in probe_rate.c, the timetag mode in
 * probe_timetag.c; the JACK clients (probe_jack.h says what the modes
 * share of them) and the other modes are here.
 *
 * Build: cc -O2 -o crosspoint-probe probe.c probe_osc.c probe_rate.c probe_timetag.c -ljack -lm -lpthread
 */
#define _GNU_SOURCE
#include "probe_jack.h"
#include "probe_osc.h"

#include <jack/jack.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ---------- JACK clients ---------- */

static jack_port_t *tone_port, *dc_port, *sink_port;
jack_client_t *sink_client;
static double phase;
_Atomic int armed;
static _Atomic int64_t seen_frame_time_us, seen_wake_us;
_Atomic uint32_t seen_frame;
_Atomic int64_t due_us, due_frame;
/* recall mode: the sink compares with a settled value and counts its cycles */
_Atomic int compare_settled;
static _Atomic float settled_value, last_value;
static _Atomic int64_t sink_cycle, sent_us, first_cycle, seen_cycle;

static int tone_process(jack_nframes_t frames, void *argument) {
    (void)argument;
    float *out = jack_port_get_buffer(tone_port, frames);
    for (jack_nframes_t k = 0; k < frames; k++) {
        out[k] = 0.25f * (float)sin(phase);
        phase += 2 * M_PI * 440.0 / 48000.0;
        if (phase > 2 * M_PI) phase -= 2 * M_PI;
    }
    return 0;
}

static int dc_process(jack_nframes_t frames, void *argument) {
    (void)argument;
    float *out = jack_port_get_buffer(dc_port, frames);
    for (jack_nframes_t k = 0; k < frames; k++) out[k] = 1.0f;
    return 0;
}

static int sink_process(jack_nframes_t frames, void *argument) {
    (void)argument;
    jack_time_t wake = jack_get_time();
    const float *in = jack_port_get_buffer(sink_port, frames);
    int64_t due = atomic_load(&due_us);
    jack_nframes_t cycle_frame;
    jack_time_t cycle_start, cycle_end;
    float cycle_period;
    if (due > 0 && atomic_load(&due_frame) < 0
        && jack_get_cycle_times(sink_client, &cycle_frame, &cycle_start, &cycle_end, &cycle_period) == 0
        && (jack_time_t)due < cycle_end) {
        double offset = (jack_time_t)due > cycle_start ? (double)((jack_time_t)due - cycle_start) / (double)(cycle_end - cycle_start) * frames : 0;
        atomic_store(&due_frame, (int64_t)cycle_frame + (int64_t)llround(offset));
    }
    int64_t cycle = atomic_fetch_add(&sink_cycle, 1);
    if (!atomic_load(&armed)) {
        atomic_store(&last_value, in[frames - 1]);
        return 0;
    }
    int64_t sent = atomic_load(&sent_us);
    if (sent != 0 && (int64_t)wake >= sent && atomic_load(&first_cycle) < 0) atomic_store(&first_cycle, cycle);
    int settled = atomic_load(&compare_settled);
    float reference = atomic_load(&settled_value);
    for (jack_nframes_t k = 0; k < frames; k++) {
        if (settled ? in[k] != reference : in[k] != 0) {
            jack_nframes_t first = jack_last_frame_time(sink_client);
            jack_time_t start = jack_frames_to_time(sink_client, first);
            jack_time_t sample = start + (jack_time_t)((double)k * 1e6 / jack_get_sample_rate(sink_client));
            atomic_store(&seen_frame_time_us, (int64_t)sample);
            atomic_store(&seen_frame, first + k);
            atomic_store(&seen_wake_us, (int64_t)wake);
            atomic_store(&seen_cycle, cycle);
            atomic_store(&armed, 0);
            break;
        }
    }
    return 0;
}

static jack_client_t *open_client(const char *name) {
    jack_client_t *client = jack_client_open(name, JackNoStartServer, NULL);
    if (!client) { fprintf(stderr, "probe: no JACK server\n"); exit(1); }
    return client;
}

int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double percentile(double *sorted, int count, double p) {
    int index = (int)(p * (count - 1) + 0.5);
    return sorted[index < count ? index : count - 1];
}

static int run_tone(double seconds) {
    jack_client_t *client = open_client("xp_tone");
    tone_port = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    jack_set_process_callback(client, tone_process, NULL);
    jack_activate(client);
    printf("ready\n");
    fflush(stdout);
    usleep((useconds_t)(seconds * 1e6));
    jack_client_close(client);
    return 0;
}

/* The two clients of the latency and recall modes: 1.0 into crosspoint:in_1, crosspoint:out_1 watched. */
jack_client_t *open_dc_and_sink(void) {
    jack_client_t *dc = open_client("xp_dc");
    sink_client = open_client("xp_sink");
    dc_port = jack_port_register(dc, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    sink_port = jack_port_register(sink_client, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    jack_set_process_callback(dc, dc_process, NULL);
    jack_set_process_callback(sink_client, sink_process, NULL);
    jack_activate(dc);
    jack_activate(sink_client);
    if (jack_connect(dc, "xp_dc:out", "crosspoint:in_1") || jack_connect(sink_client, "crosspoint:out_1", "xp_sink:in")) {
        fprintf(stderr, "probe: cannot connect to crosspoint:in_1 / out_1\n");
        exit(1);
    }
    return dc;
}

static int run_latency(int port, int trials) {
    jack_client_t *dc = open_dc_and_sink();
    struct sockaddr_in to;
    int s = osc_socket(port, &to);
    double *latency = calloc((size_t)trials, sizeof(double)), *wake = calloc((size_t)trials, sizeof(double));
    int done = 0;
    if (!latency || !wake || trials < 1) return 64;
    srand(7);
    for (int t = 0; t < trials; t++) {
        send_matrix(s, &to, 1, 1, 0, 0);
        usleep(15000 + (useconds_t)(rand() % 5000)); /* lands, and spreads sends over the period */
        atomic_store(&armed, 1);
        jack_time_t sent = jack_get_time();
        send_matrix(s, &to, 1, 1, 1, 0);
        double deadline = now_seconds() + 1;
        while (atomic_load(&armed) && now_seconds() < deadline) usleep(200);
        if (atomic_load(&armed)) { atomic_store(&armed, 0); continue; }
        latency[done] = (double)(atomic_load(&seen_frame_time_us) - (int64_t)sent) / 1000.0;
        wake[done] = (double)(atomic_load(&seen_wake_us) - (int64_t)sent) / 1000.0;
        done++;
    }
    qsort(latency, (size_t)done, sizeof(double), compare_doubles);
    qsort(wake, (size_t)done, sizeof(double), compare_doubles);
    double period_ms = jack_get_buffer_size(sink_client) * 1000.0 / jack_get_sample_rate(sink_client);
    printf("{\"trials\": %d, \"measured\": %d, \"period_ms\": %.4f, \"latency_ms_p50\": %.4f, \"latency_ms_p99\": %.4f, "
           "\"latency_ms_max\": %.4f, \"seen_ms_p50\": %.4f, \"seen_ms_p99\": %.4f, \"seen_ms_max\": %.4f}\n",
           trials, done, period_ms, percentile(latency, done, 0.5), percentile(latency, done, 0.99), latency[done - 1],
           percentile(wake, done, 0.5), percentile(wake, done, 0.99), wake[done - 1]);
    jack_client_close(dc);
    jack_client_close(sink_client);
    return done == trials ? 0 : 2;
}

static int run_recall(int port, int trials, const char *a, const char *b, double fade) {
    jack_client_t *dc = open_dc_and_sink();
    struct sockaddr_in to;
    int s = osc_socket(port, &to);
    uint8_t packet[512];
    double *latency = calloc((size_t)trials, sizeof(double)), *each = calloc((size_t)trials, sizeof(double));
    long cycles[4] = {0, 0, 0, 0}; /* 0, 1, 2, 3 or more */
    int done = 0, refused = 0;
    if (!latency || !each || trials < 1) return 64;
    atomic_store(&compare_settled, 1);
    size_t length = osc_recall(packet, a, 0);
    sendto(s, packet, length, 0, (struct sockaddr *)&to, sizeof to);
    if (recall_reply(s)) return 1;
    srand(11);
    for (int t = 0; t < trials; t++) {
        const char *name = t % 2 == 0 ? b : a;
        /* The last fade lands, then a random part of a few periods. */
        usleep((useconds_t)(fade * 1e6) + 30000 + (useconds_t)(rand() % 5000));
        atomic_store(&settled_value, atomic_load(&last_value));
        atomic_store(&sent_us, 0);
        atomic_store(&first_cycle, -1);
        atomic_store(&armed, 1);
        length = osc_recall(packet, name, (float)fade);
        jack_time_t sent = jack_get_time();
        atomic_store(&sent_us, (int64_t)sent);
        sendto(s, packet, length, 0, (struct sockaddr *)&to, sizeof to);
        if (recall_reply(s)) refused++;
        double deadline = now_seconds() + 1;
        each[t] = -1;
        while (atomic_load(&armed) && now_seconds() < deadline) usleep(200);
        if (atomic_load(&armed)) { atomic_store(&armed, 0); continue; }
        latency[done] = (double)(atomic_load(&seen_wake_us) - (int64_t)sent) / 1000.0;
        each[t] = latency[done];
        int64_t late = atomic_load(&seen_cycle) - atomic_load(&first_cycle);
        cycles[late < 0 ? 0 : late > 3 ? 3 : late]++;
        done++;
    }
    if (done == 0) { fprintf(stderr, "probe: no recall was seen on the output\n"); return 2; }
    qsort(latency, (size_t)done, sizeof(double), compare_doubles);
    double period_ms = jack_get_buffer_size(sink_client) * 1000.0 / jack_get_sample_rate(sink_client);
    printf("{\"trials\": %d, \"measured\": %d, \"refused\": %d, \"fade\": %.3f, \"period_ms\": %.4f, "
           "\"latency_ms_p50\": %.4f, \"latency_ms_p99\": %.4f, \"latency_ms_max\": %.4f, "
           "\"periods_p50\": %.3f, \"periods_p99\": %.3f, \"periods_max\": %.3f, "
           "\"cycles_0\": %ld, \"cycles_1\": %ld, \"cycles_2\": %ld, \"cycles_3_or_more\": %ld, \"latency_ms_each\": [",
           trials, done, refused, fade, period_ms, percentile(latency, done, 0.5), percentile(latency, done, 0.99),
           latency[done - 1], percentile(latency, done, 0.5) / period_ms, percentile(latency, done, 0.99) / period_ms,
           latency[done - 1] / period_ms, cycles[0], cycles[1], cycles[2], cycles[3]);
    for (int t = 0; t < trials; t++) printf("%s%.4f", t ? ", " : "", each[t]); /* in trial order; -1: not seen */
    printf("]}\n");
    jack_client_close(dc);
    jack_client_close(sink_client);
    return done == trials && refused == 0 ? 0 : 2;
}

/* ---------- saves: control while presets are written ---------- */

struct samples {
    double *values;
    int count, capacity;
};

static void add_sample(struct samples *s, double value) {
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? s->capacity * 2 : 256;
        s->values = realloc(s->values, (size_t)s->capacity * sizeof(double));
        if (!s->values) exit(70);
    }
    s->values[s->count++] = value;
}

/* What the two background clients measured in one kind of half (with saves, or without). */
struct control_figures {
    struct samples ping_ms, fader_ms;
    long unanswered_pings, unseen_faders, cycles[4];
};

static _Atomic int background_running;
static struct control_figures *background_figures; /* set while no background thread runs */
static int background_port;

static void *ping_client(void *argument) {
    (void)argument;
    struct sockaddr_in to;
    int s = osc_socket(background_port, &to);
    struct timeval timeout = {.tv_sec = 1, .tv_usec = 0};
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    uint8_t packet[512], reply[1024];
    size_t length = osc_message(packet, "/ping", ",", NULL, 0);
    while (atomic_load(&background_running)) {
        double start = now_seconds();
        sendto(s, packet, length, 0, (struct sockaddr *)&to, sizeof to);
        int answered = 0;
        for (;;) {
            ssize_t got = recv(s, reply, sizeof reply - 1, 0);
            if (got <= 0) break;
            reply[got] = 0;
            if (strcmp((char *)reply, "/pong") == 0) { answered = 1; break; }
        }
        if (answered) add_sample(&background_figures->ping_ms, (now_seconds() - start) * 1000);
        else background_figures->unanswered_pings++;
        usleep(2000); /* about 450 a second: a busy surface, not a load test */
    }
    close(s);
    return NULL;
}

static void *fader_client(void *argument) {
    (void)argument;
    struct sockaddr_in to;
    int s = osc_socket(background_port, &to);
    unsigned seed = 13;
    while (atomic_load(&background_running)) {
        send_matrix(s, &to, 1, 1, 0, 0);
        double deadline = now_seconds() + 1;
        while (atomic_load(&last_value) != 0 && now_seconds() < deadline) usleep(200);
        usleep(1000 + (useconds_t)(rand_r(&seed) % 1400)); /* a period or two more, spread over the period */
        if (!atomic_load(&background_running)) break;
        atomic_store(&compare_settled, 0);
        atomic_store(&sent_us, 0);
        atomic_store(&first_cycle, -1);
        atomic_store(&armed, 1);
        jack_time_t sent = jack_get_time();
        atomic_store(&sent_us, (int64_t)sent);
        send_matrix(s, &to, 1, 1, 1, 0);
        deadline = now_seconds() + 1;
        while (atomic_load(&armed) && now_seconds() < deadline) usleep(100);
        if (atomic_load(&armed)) {
            atomic_store(&armed, 0);
            background_figures->unseen_faders++;
            continue;
        }
        add_sample(&background_figures->fader_ms, (double)(atomic_load(&seen_wake_us) - (int64_t)sent) / 1000.0);
        int64_t late = atomic_load(&seen_cycle) - atomic_load(&first_cycle);
        background_figures->cycles[late < 0 ? 0 : late > 3 ? 3 : late]++;
    }
    close(s);
    return NULL;
}

static void print_figures(const char *name, struct control_figures *f) {
    struct samples *p = &f->ping_ms, *d = &f->fader_ms;
    qsort(p->values, (size_t)p->count, sizeof(double), compare_doubles);
    qsort(d->values, (size_t)d->count, sizeof(double), compare_doubles);
    printf("\"%s\": {\"pings\": %d, \"unanswered_pings\": %ld, \"ping_ms_p50\": %.4f, \"ping_ms_p99\": %.4f, "
           "\"ping_ms_max\": %.4f, \"faders\": %d, \"unseen_faders\": %ld, \"fader_ms_p50\": %.4f, "
           "\"fader_ms_p99\": %.4f, \"fader_ms_max\": %.4f, \"cycles_0\": %ld, \"cycles_1\": %ld, \"cycles_2\": %ld, "
           "\"cycles_3_or_more\": %ld}",
           name, p->count, f->unanswered_pings, p->count ? percentile(p->values, p->count, 0.5) : -1,
           p->count ? percentile(p->values, p->count, 0.99) : -1, p->count ? p->values[p->count - 1] : -1,
           d->count, f->unseen_faders, d->count ? percentile(d->values, d->count, 0.5) : -1,
           d->count ? percentile(d->values, d->count, 0.99) : -1, d->count ? d->values[d->count - 1] : -1,
           f->cycles[0], f->cycles[1], f->cycles[2], f->cycles[3]);
}

static int run_saves(int port, int rounds, int saves) {
    jack_client_t *dc = open_dc_and_sink();
    struct sockaddr_in to;
    int s = osc_socket(port, &to);
    struct timeval timeout = {.tv_sec = 10, .tv_usec = 0};
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    struct control_figures during = {0}, without = {0};
    struct samples burst_ms = {0};
    long saved = 0, refused = 0, unanswered = 0;
    uint8_t packet[512], reply[1024];
    if (rounds < 1 || saves < 1) return 64;
    background_port = port;
    for (int r = 0; r < rounds; r++) {
        double last_burst = 0;
        for (int half = 0; half < 2; half++) {
            background_figures = half == 0 ? &during : &without;
            atomic_store(&background_running, 1);
            pthread_t pinger, fader;
            pthread_create(&pinger, NULL, ping_client, NULL);
            pthread_create(&fader, NULL, fader_client, NULL);
            double start = now_seconds();
            if (half == 0) {
                for (int k = 0; k < saves; k++) {
                    char name[32];
                    snprintf(name, sizeof name, "bench-%d", k % 10);
                    size_t length = osc_save(packet, name);
                    sendto(s, packet, length, 0, (struct sockaddr *)&to, sizeof to);
                }
                int answered = 0;
                while (answered < saves) {
                    ssize_t got = recv(s, reply, sizeof reply - 1, 0);
                    if (got <= 0) { unanswered += saves - answered; break; }
                    reply[got] = 0;
                    if (strcmp((char *)reply, "/preset/saved") == 0) { saved++; answered++; }
                    else if (strcmp((char *)reply, "/error") == 0) { refused++; answered++; }
                }
                last_burst = now_seconds() - start;
                add_sample(&burst_ms, last_burst * 1000);
            } else {
                usleep((useconds_t)(last_burst * 1e6));
            }
            atomic_store(&background_running, 0);
            pthread_join(pinger, NULL);
            pthread_join(fader, NULL);
        }
    }
    qsort(burst_ms.values, (size_t)burst_ms.count, sizeof(double), compare_doubles);
    double period_ms = jack_get_buffer_size(sink_client) * 1000.0 / jack_get_sample_rate(sink_client);
    printf("{\"rounds\": %d, \"saves_per_round\": %d, \"saved\": %ld, \"refused\": %ld, \"unanswered\": %ld, "
           "\"period_ms\": %.4f, \"burst_ms_p50\": %.3f, \"burst_ms_min\": %.3f, \"burst_ms_max\": %.3f, ",
           rounds, saves, saved, refused, unanswered, period_ms, percentile(burst_ms.values, burst_ms.count, 0.5),
           burst_ms.values[0], burst_ms.values[burst_ms.count - 1]);
    print_figures("during_saves", &during);
    printf(", ");
    print_figures("without_saves", &without);
    printf("}\n");
    jack_client_close(dc);
    jack_client_close(sink_client);
    return saved == (long)rounds * saves ? 0 : 2;
}

int main(int argc, char **argv) {
    if (argc >= 3 && !strcmp(argv[1], "tone")) return run_tone(atof(argv[2]));
    if (argc >= 4 && !strcmp(argv[1], "latency")) return run_latency(atoi(argv[2]), atoi(argv[3]));
    if (argc >= 7 && !strcmp(argv[1], "recall")) return run_recall(atoi(argv[2]), atoi(argv[3]), argv[4], argv[5], atof(argv[6]));
    if (argc >= 4 && !strcmp(argv[1], "timetag")) return run_timetag(atoi(argv[2]), atoi(argv[3]));
    if (argc >= 6 && !strcmp(argv[1], "rate")) return run_rate(atoi(argv[2]), atof(argv[3]), atof(argv[4]), atoi(argv[5]));
    if (argc >= 5 && !strcmp(argv[1], "saves")) return run_saves(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    fprintf(stderr, "usage: probe tone SECONDS | latency OSC_PORT TRIALS | recall OSC_PORT TRIALS PRESET_A PRESET_B FADE"
                    " | timetag OSC_PORT TRIALS | rate OSC_PORT RATE SECONDS PARAMETERS | saves OSC_PORT ROUNDS SAVES\n");
    return 64;
}
