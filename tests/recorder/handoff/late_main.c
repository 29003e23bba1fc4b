/* tests/recorder/t_handoff.sh's program: `late_main N` has liblate.so
 * (late_lib.c) record evh_step 0 to N-1; the library's destructor records
 * the next values after exit() began. */
#include <stdlib.h>

#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

void late_run(int n);

int main(int argc, char **argv)
{
	late_run(argc > 1 ? atoi(argv[1]) : 1000);
	return 0;
}
