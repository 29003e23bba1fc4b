/* Defines the cf_big event (its fixed part is 4 + BIG_LEN bytes). */
#define CREATE_TRACE_POINTS
#include "ev_big.h"
