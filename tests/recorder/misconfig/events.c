/* Defines the events (built with -DCONFIG_MC_NET). */
#define CREATE_TRACE_POINTS
#include "ev_net.h"
