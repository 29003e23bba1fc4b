/* main() for the kv link cases. */
int kv_run(int n);
int main(void)
{
	return kv_run(1) < 0 && 0;
}
