/* Interface of c_side.c, usable from C and C++. */
#ifndef CXX_TEST_C_SIDE_H
#define CXX_TEST_C_SIDE_H
#ifdef __cplusplus
extern "C" {
#endif
struct tracepoint;
void c_fire_own(int a, const char *s);
void c_fire_cpp(double d, long n);
int c_register_on_cpp(void);
int c_unregister_on_cpp(void);
int c_probe_seen(long *last_n);
struct tracepoint *c_addr_of_cpp_ev(void);
int c_fire_cpp_only(void);
#ifdef __cplusplus
}
#endif
#endif
