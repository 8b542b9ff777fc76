/*
 * The OSC side of crosspoint-probe (probe.c): packets built by hand, a UDP
 * socket to the rig on loopback, its replies read, and the kernel's count of
 * datagrams dropped on the rig's socket; and the monotonic clock every mode
 * times with. No JACK here.
 */
#define _GNU_SOURCE
#include "probe_osc.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* ---------- packets (enough for ,ff and no-argument queries) ---------- */

static size_t pad4(size_t n) { return (n + 3) & ~(size_t)3; }

size_t osc_message(uint8_t *out, const char *address, const char *types, const float *values, int count) {
    size_t n = 0, length = strlen(address) + 1;
    memset(out, 0, 512);
    memcpy(out, address, length - 1);
    n = pad4(length);
    size_t type_length = strlen(types) + 1;
    memcpy(out + n, types, type_length - 1);
    n += pad4(type_length);
    for (int i = 0; i < count; i++) {
        uint32_t bits;
        memcpy(&bits, &values[i], 4);
        bits = htonl(bits);
        memcpy(out + n, &bits, 4);
        n += 4;
    }
    return n;
}

int osc_socket(int port, struct sockaddr_in *to) {
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in local = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    bind(s, (struct sockaddr *)&local, sizeof local);
    memset(to, 0, sizeof *to);
    to->sin_family = AF_INET;
    to->sin_port = htons((uint16_t)port);
    to->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval timeout = {.tv_sec = 2, .tv_usec = 0};
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    return s;
}

void send_matrix(int s, struct sockaddr_in *to, int n, int m, float value, float fade) {
    char address[64];
    uint8_t packet[512];
    snprintf(address, sizeof address, "/matrix/%d/%d", n, m);
    float values[2] = {value, fade};
    size_t length = osc_message(packet, address, ",ff", values, 2);
    sendto(s, packet, length, 0, (struct sockaddr *)to, sizeof *to);
}

/* ADDRESS TYPES NAME: a message whose first argument is the string NAME
   (types ",s" or ",sf"); its length so far, or 0 if NAME is too long. */
static size_t osc_named(uint8_t *out, const char *address, const char *types, const char *name) {
    size_t n, length = strlen(name) + 1;
    memset(out, 0, 512);
    if (length > 400) return 0;
    memcpy(out, address, strlen(address));
    n = pad4(strlen(address) + 1);
    memcpy(out + n, types, strlen(types));
    n += pad4(strlen(types) + 1);
    memcpy(out + n, name, length - 1);
    return n + pad4(length);
}

/* /preset/recall NAME FADE (,sf). */
size_t osc_recall(uint8_t *out, const char *name, float fade) {
    size_t n = osc_named(out, "/preset/recall", ",sf", name);
    if (n == 0) return 0;
    uint32_t bits;
    memcpy(&bits, &fade, 4);
    bits = htonl(bits);
    memcpy(out + n, &bits, 4);
    return n + 4;
}

/* Waits for a reply to a recall: 0 for /preset/recalled, -1 for /error or nothing. */
int recall_reply(int s) {
    uint8_t reply[1024];
    for (;;) {
        ssize_t got = recv(s, reply, sizeof reply - 1, 0);
        if (got <= 0) return -1;
        reply[got] = 0;
        if (strcmp((char *)reply, "/preset/recalled") == 0) return 0;
        if (strcmp((char *)reply, "/error") == 0) {
            size_t offset = pad4(strlen("/error") + 1) + 4; /* ,ss */
            offset += pad4(strlen((char *)reply + offset) + 1);
            fprintf(stderr, "probe: recall refused: %s\n", offset < (size_t)got ? (char *)reply + offset : "?");
            return -1;
        }
    }
}

/* Sends /ADDRESS with no arguments and waits for the reply's float. */
int query_float(int s, struct sockaddr_in *to, const char *address, float *value) {
    uint8_t packet[512], reply[1024];
    size_t length = osc_message(packet, address, ",", NULL, 0);
    sendto(s, packet, length, 0, (struct sockaddr *)to, sizeof *to);
    for (;;) {
        ssize_t got = recv(s, reply, sizeof reply, 0);
        if (got <= 0) return -1;
        if (strcmp((char *)reply, address) != 0) continue;
        size_t offset = pad4(strlen(address) + 1);
        if (memcmp(reply + offset, ",f", 2) != 0) return -1;
        offset += 4;
        uint32_t bits;
        memcpy(&bits, reply + offset, 4);
        bits = ntohl(bits);
        memcpy(value, &bits, 4);
        return 0;
    }
}

/* Sum of the drops column of every UDP socket bound to PORT on loopback/any. */
long udp_drops(int port) {
    long total = 0;
    const char *files[2] = {"/proc/net/udp", "/proc/net/udp6"};
    for (int f = 0; f < 2; f++) {
        FILE *file = fopen(files[f], "r");
        if (!file) continue;
        char line[512];
        if (!fgets(line, sizeof line, file)) { fclose(file); continue; }
        while (fgets(line, sizeof line, file)) {
            char local[128];
            if (sscanf(line, "%*d: %127s", local) != 1) continue;
            char *colon = strrchr(local, ':');
            if (!colon || strtol(colon + 1, NULL, 16) != port) continue;
            /* the drops column is the last field (lines end in spaces) */
            char *field = NULL, *cursor = line, *token;
            while ((token = strtok_r(cursor, " \t\n", &cursor)) != NULL) field = token;
            if (field) total += strtol(field, NULL, 10);
        }
        fclose(file);
    }
    return total;
}

/* /preset/save NAME (,s). */
size_t osc_save(uint8_t *out, const char *name) { return osc_named(out, "/preset/save", ",s", name); }

/* A bundle with time tag TAG (NTP) holding /matrix/N/M ,ff VALUE FADE. */
size_t osc_timed_matrix(uint8_t *out, uint64_t tag, int n, int m, float value, float fade) {
    char address[64];
    uint8_t message[512];
    snprintf(address, sizeof address, "/matrix/%d/%d", n, m);
    float values[2] = {value, fade};
    size_t length = osc_message(message, address, ",ff", values, 2);
    memcpy(out, "#bundle\0", 8);
    uint32_t high = htonl((uint32_t)(tag >> 32)), low = htonl((uint32_t)tag), size = htonl((uint32_t)length);
    memcpy(out + 8, &high, 4);
    memcpy(out + 12, &low, 4);
    memcpy(out + 16, &size, 4);
    memcpy(out + 20, message, length);
    return 20 + length;
}
