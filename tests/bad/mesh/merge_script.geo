// Merge of a file that is not mesh or CAD data runs it as a script: it is checked as one.
Merge "include/script_in.msh";
