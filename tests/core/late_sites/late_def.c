/* liblate_def.so: defines late_tp and has no call site of it. */
#include "late_events.h"

DEFINE_TRACE(late_tp);
