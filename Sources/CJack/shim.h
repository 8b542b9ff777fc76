#ifndef CROSSPOINT_CJACK_SHIM_H
#define CROSSPOINT_CJACK_SHIM_H
#include <jack/jack.h>
#include <jack/midiport.h>

// jack_client_open is variadic, which Swift cannot call. This wrapper takes
// no server name: the server is chosen by JACK_DEFAULT_SERVER.
static inline jack_client_t *crosspoint_jack_client_open(const char *name,
                                                         jack_options_t options,
                                                         jack_status_t *status) {
    return jack_client_open(name, options, status);
}

// The same, naming the server explicitly (JackServerName).
static inline jack_client_t *crosspoint_jack_client_open_server(const char *name,
                                                                jack_options_t options,
                                                                jack_status_t *status,
                                                                const char *server) {
    return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server);
}
#endif
