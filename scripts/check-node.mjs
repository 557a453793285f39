// Plain JavaScript on purpose: it must run, and explain itself, on the old Node versions it rejects.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(
    `Life Concierge needs Node.js 22.22 or newer (24 recommended); this is ${process.version}.\n` +
      'Install Node 24 (see README.md, "Requirements") and run the command again.',
  );
  process.exit(1);
}
