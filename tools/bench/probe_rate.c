/*
 * crosspoint-probe rate (probe.c dispatches here): OSC only, no JACK.
 *
 *   probe rate OSC_PORT RATE SECONDS PARAMETERS
 *       Sends RATE messages per second for SECONDS, cycling over PARAMETERS
 *       crosspoints /matrix/n/m (n, m in 1..8) with values that change every
 *       message, each message its own datagram; then a last distinct value to
 *       every parameter, waits for the server to answer a /ping (it handles
 *       messages in order; the wait is reported as catch_up_seconds), then
 *       queries each parameter and compares. Loss is also read
 *       from the kernel: the drops counter of the server's UDP socket in
 *       /proc/net/udp (and /proc/net/udp6). Prints one JSON line.
 */
#define _GNU_SOURCE
#include "probe_osc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int run_rate(int port, double rate, double seconds, int parameters) {
    struct sockaddr_in to;
    int s = osc_socket(port, &to);
    long drops_before = udp_drops(port);
    float *last = calloc((size_t)parameters, sizeof(float));
    long sent = 0;
    double start = now_seconds(), end = start + seconds;
    /* Send in small bursts paced against the clock. */
    while (now_seconds() < end) {
        double due = (now_seconds() - start) * rate;
        while (sent < (long)due) {
            int p = (int)(sent % parameters);
            float value = (float)((sent / parameters) % 1000) / 1000.0f;
            send_matrix(s, &to, p / 8 + 1, p % 8 + 1, value, 0);
            last[p] = value;
            sent++;
        }
        usleep(100);
    }
    double elapsed = now_seconds() - start;
    /* Wait until the server has handled everything sent so far: it handles
       messages in order, so its /pong comes after the last of them. */
    double sent_end = now_seconds();
    {
        uint8_t packet[512], reply[1024];
        size_t length = osc_message(packet, "/ping", ",", NULL, 0);
        sendto(s, packet, length, 0, (struct sockaddr *)&to, sizeof to);
        while (now_seconds() < sent_end + 60) {
            ssize_t got = recv(s, reply, sizeof reply, 0);
            if (got > 0 && strcmp((char *)reply, "/pong") == 0) break;
        }
    }
    double catch_up = now_seconds() - sent_end;
    for (int p = 0; p < parameters; p++) {
        float value = 1.0f + (float)p / 1024.0f; /* distinct, within 0…4 */
        send_matrix(s, &to, p / 8 + 1, p % 8 + 1, value, 0);
        last[p] = value;
        sent++;
    }
    int mismatches = 0, unanswered = 0;
    for (int p = 0; p < parameters; p++) {
        char address[64];
        float value;
        snprintf(address, sizeof address, "/matrix/%d/%d", p / 8 + 1, p % 8 + 1);
        if (query_float(s, &to, address, &value)) unanswered++;
        else if (value != last[p]) mismatches++;
    }
    long drops = udp_drops(port) - drops_before;
    printf("{\"requested_rate\": %.0f, \"achieved_rate\": %.0f, \"sent\": %ld, \"seconds\": %.3f, \"parameters\": %d, "
           "\"kernel_drops\": %ld, \"final_mismatches\": %d, \"unanswered_queries\": %d, \"catch_up_seconds\": %.3f, "
           "\"loss_free\": %s}\n",
           rate, (sent - parameters) / elapsed, sent, elapsed, parameters, drops, mismatches, unanswered, catch_up,
           drops == 0 && mismatches == 0 && unanswered == 0 && catch_up < 10 ? "true" : "false");
    return 0;
}
