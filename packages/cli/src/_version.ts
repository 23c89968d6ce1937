/** The version `skillshelf --version` prints (the bin answers it without loading the bundle). */
export const VERSION = "0.0.0";
