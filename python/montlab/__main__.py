from montlab.cli import main

main(prog_name="montlab")
