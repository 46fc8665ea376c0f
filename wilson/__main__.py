from wilson.cli import main

main()
