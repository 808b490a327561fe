@rem `npm run quickstart` runs "exec node scripts/quickstart.mjs ...": sh replaces itself with node, so
@rem a Ctrl-C ends the quickstart and npm cleanly (a shell left waiting dies of it). cmd.exe has no
@rem exec and finds this file in the current folder instead: it runs the rest of the line.
@%*
