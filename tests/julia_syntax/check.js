// Parses each Julia file named on the command line with tree-sitter-julia (its WebAssembly
// grammar through web-tree-sitter) and prints every syntax error or missing token with its
// line; exits 1 if there is any. Julia cannot be installed on the project's machines: this
// is the binding's syntax check (tests/julia_signatures.rs runs it).
const Parser = require('web-tree-sitter');
const fs = require('fs');

(async () => {
  await Parser.init();
  const julia = await Parser.Language.load(require.resolve('tree-sitter-julia/tree-sitter-julia.wasm'));
  const parser = new Parser();
  parser.setLanguage(julia);
  let errors = 0;
  for (const file of process.argv.slice(2)) {
    const visit = (node) => {
      const missing = typeof node.isMissing === 'function' ? node.isMissing() : node.isMissing;
      if (node.type === 'ERROR' || missing) {
        errors++;
        const where = `${file}:${node.startPosition.row + 1}:${node.startPosition.column + 1}`;
        const text = node.text.slice(0, 80).replace(/\n/g, ' ');
        console.log(`${where}: ${missing ? 'missing ' + node.type : 'syntax error'}: ${text}`);
        return;
      }
      node.children.forEach(visit);
    };
    visit(parser.parse(fs.readFileSync(file, 'utf8')).rootNode);
  }
  console.log(`${process.argv.length - 2} files parsed, ${errors} syntax errors`);
  process.exit(errors ? 1 : 0);
})();
