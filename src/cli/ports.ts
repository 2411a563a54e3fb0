/** Default ports, where both a command and its help text need them (help must not load the command). */
export const UI_DEFAULT_PORT = 7778;
