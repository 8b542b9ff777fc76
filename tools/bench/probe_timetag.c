/*
 * crosspoint-probe timetag (probe.c dispatches here): how close to its time
 * tag a timed bundle lands, in frames.
 *
 *   probe timetag OSC_PORT TRIALS
 *       The same two clients. Each trial sets /matrix/1/1 to 0 (no fade),
 *       waits, then picks a time 100-300 ms ahead, reads the wall clock and
 *       jack_get_time() together, asks JACK which frame that time will be
 *       (jack_time_to_frames then, "ahead"), and sends a bundle with that
 *       time tag holding /matrix/1/1 1 0. The sink notes the frame JACK's
 *       map gives for that time in the cycle it falls in (the time's place
 *       in the cycle's span, jack_get_cycle_times: as crosspoint places a
 *       time tag) and the frame of the first non-zero sample (the cycle's
 *       frame plus its offset). Error = that frame - the expected one, in
 *       frames. Prints one JSON line: every trial's error in order, the
 *       median and 99th percentile of |error|, the largest, and the same
 *       against the map made ahead.
 */
#define _GNU_SOURCE
#include "probe_jack.h"
#include "probe_osc.h"

#include <jack/jack.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int run_timetag(int port, int trials) {
    jack_client_t *dc = open_dc_and_sink();
    struct sockaddr_in to;
    int s = osc_socket(port, &to);
    double *error = calloc((size_t)trials, sizeof(double)), *magnitude = calloc((size_t)trials, sizeof(double));
    double *ahead_magnitude = calloc((size_t)trials, sizeof(double));
    int done = 0;
    if (!error || !magnitude || !ahead_magnitude || trials < 1) return 64;
    srand(11);
    for (int t = 0; t < trials; t++) {
        send_matrix(s, &to, 1, 1, 0, 0);
        usleep(60000);
        atomic_store(&compare_settled, 0);
        atomic_store(&armed, 1);
        double ahead = 0.1 + 0.2 * (rand() / (double)RAND_MAX);
        /* The wall clock between two readings of JACK's, the tightest of a few tries. */
        struct timespec wall = {0, 0};
        jack_time_t jack_now = 0, spread = ~(jack_time_t)0;
        for (int attempt = 0; attempt < 8 && spread > 4; attempt++) {
            struct timespec w;
            jack_time_t before = jack_get_time();
            clock_gettime(CLOCK_REALTIME, &w);
            jack_time_t after = jack_get_time();
            if (after - before < spread) {
                spread = after - before;
                jack_now = before + spread / 2;
                wall = w;
            }
        }
        uint32_t expected_ahead = jack_time_to_frames(sink_client, jack_now + (jack_time_t)(ahead * 1e6));
        atomic_store(&due_frame, -1);
        atomic_store(&due_us, (int64_t)(jack_now + (jack_time_t)(ahead * 1e6)));
        double due = wall.tv_sec + wall.tv_nsec * 1e-9 + ahead + 2208988800.0; /* NTP seconds */
        uint64_t tag = ((uint64_t)due << 32) | (uint64_t)((due - (double)(uint64_t)due) * 4294967296.0);
        uint8_t packet[600];
        size_t length = osc_timed_matrix(packet, tag, 1, 1, 1, 0);
        sendto(s, packet, length, 0, (struct sockaddr *)&to, sizeof to);
        double deadline = now_seconds() + ahead + 1.0;
        while (atomic_load(&armed) && now_seconds() < deadline) usleep(1000);
        if (atomic_load(&armed)) {
            atomic_store(&armed, 0);
            fprintf(stderr, "probe: trial %d: the bundle never took effect\n", t);
            continue;
        }
        int64_t expected = atomic_load(&due_frame);
        atomic_store(&due_us, 0);
        if (expected < 0) {
            fprintf(stderr, "probe: trial %d: the sink never ran the cycle its time fell in\n", t);
            continue;
        }
        error[done] = (double)(int32_t)(atomic_load(&seen_frame) - (uint32_t)expected);
        magnitude[done] = fabs(error[done]);
        ahead_magnitude[done] = fabs((double)(int32_t)(atomic_load(&seen_frame) - expected_ahead));
        done++;
    }
    if (done == 0) return 1;
    printf("{\"trials\": %d, \"seen\": %d, \"period\": %d, \"error_frames\": [", trials, done,
           (int)jack_get_buffer_size(sink_client));
    for (int i = 0; i < done; i++) printf("%s%.0f", i ? ", " : "", error[i]);
    qsort(magnitude, (size_t)done, sizeof(double), compare_doubles);
    qsort(ahead_magnitude, (size_t)done, sizeof(double), compare_doubles);
    printf("], \"abs_error_frames_p50\": %.0f, \"abs_error_frames_p99\": %.0f, \"abs_error_frames_max\": %.0f, "
           "\"ahead_abs_error_frames_p50\": %.0f, \"ahead_abs_error_frames_p99\": %.0f, \"ahead_abs_error_frames_max\": %.0f}\n",
           percentile(magnitude, done, 0.5), percentile(magnitude, done, 0.99), magnitude[done - 1],
           percentile(ahead_magnitude, done, 0.5), percentile(ahead_magnitude, done, 0.99), ahead_magnitude[done - 1]);
    jack_client_close(sink_client);
    jack_client_close(dc);
    return 0;
}
