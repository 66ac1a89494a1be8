// S2N builds a name from a string at run time: S2N["SystemCall"] "..." runs the command.
S2N[StrCat("System", "Call")] "true";
