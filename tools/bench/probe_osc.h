/*
 * The OSC side of crosspoint-probe (probe.c, probe_osc.c): enough OSC for
 * ,ff messages, no-argument queries, /preset/recall and /preset/save, and a
 * timed bundle, built by hand into a buffer of at least 512 bytes; a UDP
 * socket on loopback to the rig; its replies read.
 */
#ifndef CROSSPOINT_PROBE_OSC_H
#define CROSSPOINT_PROBE_OSC_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

/* ADDRESS TYPES VALUES… with float arguments only (",ff", or "," for none); its length. */
size_t osc_message(uint8_t *out, const char *address, const char *types, const float *values, int count);
/* /preset/recall NAME FADE (,sf); 0 if NAME is too long. */
size_t osc_recall(uint8_t *out, const char *name, float fade);
/* /preset/save NAME (,s); 0 if NAME is too long. */
size_t osc_save(uint8_t *out, const char *name);
/* A bundle with time tag TAG (NTP) holding /matrix/N/M ,ff VALUE FADE. */
size_t osc_timed_matrix(uint8_t *out, uint64_t tag, int n, int m, float value, float fade);

/* A UDP socket bound to loopback (any port), replies waited for 2 s; *to = the rig at PORT on loopback. */
int osc_socket(int port, struct sockaddr_in *to);
/* Sends /matrix/N/M ,ff VALUE FADE. */
void send_matrix(int s, struct sockaddr_in *to, int n, int m, float value, float fade);
/* Waits for a reply to a recall: 0 for /preset/recalled, -1 for /error or nothing. */
int recall_reply(int s);
/* Sends /ADDRESS with no arguments and waits for the reply's float: 0, or -1 for none. */
int query_float(int s, struct sockaddr_in *to, const char *address, float *value);
/* Seconds on CLOCK_MONOTONIC. */
double now_seconds(void);
/* probe rate (probe_rate.c). */
int run_rate(int port, double rate, double seconds, int parameters);
/* Sum of the drops column of every UDP socket bound to PORT on loopback/any (/proc/net/udp, udp6). */
long udp_drops(int port);

#endif
