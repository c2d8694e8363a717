from mcecrawl.cli import main

raise SystemExit(main())
