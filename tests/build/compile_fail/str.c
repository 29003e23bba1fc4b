/* Defines the cf_str event: __get_str() and __assign_str() must name one
 * of its __string()s (ev_str.h). */
#define CREATE_TRACE_POINTS
#include "ev_str.h"
