// The database drivers are optional peer dependencies, loaded only when their storage is chosen:
// this loads one and, when it is not installed, says who needs it and how to install it.

/** Runs `load` (the driver's import); if it fails, an error naming `name` as what `who` needs. */
export async function loadPeer<T>(load: () => Promise<T>, name: string, who: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new Error(
      `${who} needs the optional peer dependency ${name} (npm install ${name}): ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}
