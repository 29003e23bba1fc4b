/* The USDT test program with its tracepoints in a shared library:
 * t_usdt.sh builds usdt_prog.c with -Dmain=usdt_lib_main into libusdt.so. */
int usdt_lib_main(int argc, char **argv);

int main(int argc, char **argv)
{
	return usdt_lib_main(argc, argv);
}
