/* i915: the graphics driver stand-in (examples/i915.c).
 * Compiled in by -DCONFIG_DRM_I915_TRACER.
 *
 * This header keeps the driver's own layout, as drivers/gpu/drm/i915/i915_trace.h
 * did in the seed patch: no TRACE_SYSTEM, its own include guard, and the
 * switch set directly before <tracepoint.h> (the "include-before" form). */
#if !defined(_I915_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _I915_TRACE_H_

#include <stddef.h>
#undef TRACE_CONFIG
#define TRACE_CONFIG CONFIG_DRM_I915_TRACER
#include <tracepoint.h>

DECLARE_TRACE(i915_gem_object_create, TP_PROTO(const void *obj, size_t size), TP_ARGS(obj, size));

DECLARE_TRACE(i915_gem_request_submit, TP_PROTO(unsigned int seqno), TP_ARGS(seqno));

DECLARE_TRACE(i915_gem_request_complete, TP_PROTO(unsigned int seqno), TP_ARGS(seqno));

#endif /* _I915_TRACE_H_ */
