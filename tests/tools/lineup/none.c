/* tests/tools/t_lineup.sh: other() of a run without a second tracer. */
void other(int n);
void other(int n)
{
	(void)n;
}
