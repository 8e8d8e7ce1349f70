int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
