/*
 * What the JACK modes of crosspoint-probe (probe.c, probe_timetag.c) share:
 * the DC source and the sink on crosspoint:in_1 / out_1, what the sink saw,
 * and the figures' sorting. The clients and the sink's callback are in
 * probe.c.
 */
#ifndef CROSSPOINT_PROBE_JACK_H
#define CROSSPOINT_PROBE_JACK_H

#include <jack/jack.h>
#include <stdatomic.h>
#include <stdint.h>

/* The sink's client (xp_sink), once open_dc_and_sink() ran. */
extern jack_client_t *sink_client;
/* The sink is waiting for the first moved sample. */
extern _Atomic int armed;
/* 1: "moved" = differs from the settled value; 0: not zero. */
extern _Atomic int compare_settled;
/* The frame of the first moved sample. */
extern _Atomic uint32_t seen_frame;
/* timetag: the bundle's time on JACK's clock, and the frame JACK's map gives
   for it in the cycle it falls in (-1: not yet), as crosspoint places it. */
extern _Atomic int64_t due_us, due_frame;

/* The two clients: 1.0 into crosspoint:in_1, crosspoint:out_1 watched; returns the DC source's client. */
jack_client_t *open_dc_and_sink(void);
/* qsort's comparison for doubles, and the P-th percentile (0…1) of COUNT sorted values. */
int compare_doubles(const void *a, const void *b);
double percentile(double *sorted, int count, double p);
/* probe timetag (probe_timetag.c). */
int run_timetag(int port, int trials);

#endif
