// Printf(...) > "file" writes (>> appends) a file; a plain Printf is allowed.
Printf("plain Printf is fine");
Printf("x = %g", 1) >> "/dev/null";
