#!/usr/bin/env node
/**
 * Writes custom-elements.json (the Custom Elements Manifest, schema 2.1), which package.json
 * names in `customElements` for editors, Storybook and linters. Read from the element classes'
 * sources with the TypeScript parser: the tag from `customElements.define`, the description and
 * the `@event`, `@slot`, `@csspart` and `@cssproperty` tags from the class JSDoc, the public
 * properties and methods with their doc comments, the attributes from `static properties` and
 * from the mount options an element reads as attributes (`OPTION_ATTRIBUTES`).
 *
 *   node scripts/custom-elements-manifest.mjs [out]     (default custom-elements.json)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

const ELEMENTS = ['src/components/assist-chat/assist-chat.ts', 'src/components/assist-search/assist-search.ts'];
const OUT = process.argv[2] ?? 'custom-elements.json';

/** The text of a JSDoc comment (without its tags). */
function commentText(comment) {
  if (comment === undefined) return '';
  return (typeof comment === 'string' ? comment : comment.map((part) => part.text).join('')).trim();
}

function jsDocOf(node) {
  return ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
}

function descriptionOf(node) {
  return jsDocOf(node).map((doc) => commentText(doc.comment)).filter(Boolean).join('\n');
}

/** `@event name - text` and the like: the name and the text after the dash. */
function namedTags(node, tagName) {
  const found = [];
  for (const doc of jsDocOf(node)) {
    for (const tag of doc.tags ?? []) {
      if (tag.tagName.text !== tagName) continue;
      const match = /^(\S+)\s+-\s+([\s\S]*)$/.exec(commentText(tag.comment));
      if (match) found.push({ name: match[1], description: match[2].replace(/\s+/g, ' ').trim() });
    }
  }
  return found;
}

const isPrivate = (member) =>
  ts.getCombinedModifierFlags(member) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) || (member.name && ts.isPrivateIdentifier(member.name));
const isStatic = (member) => ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Static;
const isOverride = (member) => ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Override;

/** An object literal's properties as plain values (strings, booleans, arrays, nested objects, identifiers as their names). */
function literal(node) {
  if (ts.isObjectLiteralExpression(node)) {
    return Object.fromEntries(node.properties.filter(ts.isPropertyAssignment).map((property) => [property.name.getText(), literal(property.initializer)]));
  }
  if (ts.isArrayLiteralExpression(node)) return node.elements.map(literal);
  if (ts.isStringLiteral(node)) return node.text;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  return node.getText();
}

/** The class of an element's module, with its source and the values of `OPTION_ATTRIBUTES` and `customElements.define`. */
function classIn(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  let tagName;
  let optionAttributes = { text: [], flags: [], numbers: [] };
  let declaration;
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.getText() === 'customElements.define') tagName = literal(node.arguments[0]);
    if (ts.isVariableDeclaration(node) && node.name.getText() === 'OPTION_ATTRIBUTES' && node.initializer) optionAttributes = { ...optionAttributes, ...literal(node.initializer) };
    if (ts.isClassDeclaration(node) && node.name) declaration = node;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { source, tagName, optionAttributes, declaration };
}

/** The module a class extends, when it is one of ours (`import { WidgetElement } from '../shared/widget-element.js'`). */
function baseClassPath(source, declaration) {
  const base = declaration.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression.getText();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause?.namedBindings || !ts.isNamedImports(statement.importClause.namedBindings)) continue;
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith('.') || !statement.importClause.namedBindings.elements.some((element) => element.name.text === base)) continue;
    return join(dirname(source.fileName), specifier).replace(/\.js$/, '.ts');
  }
  return null;
}

function moduleFor(path) {
  const { source, tagName, optionAttributes, declaration } = classIn(path);
  const jsPath = `dist/npm/${path.replace(/\.ts$/, '.js')}`;
  if (!declaration || !tagName) throw new Error(`${path}: no element class or no customElements.define()`);
  // The shared base class's public API is the element's too; the element's own declarations win.
  const basePath = baseClassPath(source, declaration);
  const base = basePath ? classIn(basePath) : null;
  const sourceText = source.text + (base?.source.text ?? '');

  const reactive = {};
  const byName = new Map();
  for (const classDeclaration of [base?.declaration, declaration]) {
    for (const member of classDeclaration?.members ?? []) {
      if (!member.name || isPrivate(member)) continue;
      const name = member.name.getText();
      if (isStatic(member)) {
        if (name === 'properties' && ts.isPropertyDeclaration(member) && member.initializer) Object.assign(reactive, literal(member.initializer));
        continue;
      }
      // Lifecycle callbacks are the platform's and Lit's, not this element's API.
      if (isOverride(member)) continue;
      const description = descriptionOf(member);
      const inherited = byName.get(name);
      if (ts.isMethodDeclaration(member)) {
        byName.set(name, { kind: 'method', name, description: description || inherited?.description || '', return: { type: { text: member.type?.getText() ?? 'void' } } });
      } else if (ts.isPropertyDeclaration(member)) {
        byName.set(name, { kind: 'field', name, type: { text: member.type?.getText() ?? 'unknown' }, description: description || inherited?.description || '' });
      }
    }
  }
  const members = [...byName.values()];
  const fields = new Map(members.filter((member) => member.kind === 'field').map((member) => [member.name, member]));
  const attributes = [];
  for (const [name, options] of Object.entries(reactive)) {
    if (options.state || options.attribute === false || !fields.has(name)) continue;
    const field = fields.get(name);
    const attribute = typeof options.attribute === 'string' ? options.attribute : name.toLowerCase();
    field.attribute = attribute;
    if (options.reflect) field.reflects = true;
    attributes.push({ name: attribute, fieldName: name, type: field.type, description: field.description });
  }
  const optionAttribute = (name, type) => ({
    name,
    type: { text: type },
    description: `The mount option \`${name.replaceAll('-', '_')}\` (see the reference's mount options); the \`options\` property wins over it.`,
  });
  for (const name of optionAttributes.text ?? []) if (!attributes.some((attribute) => attribute.name === name)) attributes.push(optionAttribute(name, 'string'));
  for (const name of optionAttributes.flags ?? []) attributes.push(optionAttribute(name, 'boolean'));
  for (const name of optionAttributes.numbers ?? []) attributes.push(optionAttribute(name, 'number'));
  // The search element reads `trigger` as an attribute only (the chat element also has the property).
  if (!attributes.some((attribute) => attribute.name === 'trigger') && sourceText.includes("getAttribute('trigger')")) {
    attributes.push({ name: 'trigger', type: { text: 'string' }, description: 'CSS selector of your own elements that open the widget.' });
  }

  const className = declaration.name.text;
  return {
    kind: 'javascript-module',
    path: jsPath,
    declarations: [
      {
        kind: 'class',
        name: className,
        description: descriptionOf(declaration).split('\n\n')[0].replace(/\s+/g, ' ').trim(),
        tagName,
        customElement: true,
        superclass: { name: 'LitElement', package: 'lit' },
        members,
        attributes,
        events: namedTags(declaration, 'event').map(({ name, description }) => ({ name, type: { text: 'CustomEvent' }, description })),
        slots: namedTags(declaration, 'slot'),
        cssParts: namedTags(declaration, 'csspart'),
        cssProperties: namedTags(declaration, 'cssproperty'),
      },
    ],
    exports: [
      { kind: 'js', name: className, declaration: { name: className, module: jsPath } },
      { kind: 'custom-element-definition', name: tagName, declaration: { name: className, module: jsPath } },
    ],
  };
}

const manifest = { schemaVersion: '2.1.0', readme: 'docs/npm.md', modules: ELEMENTS.map(moduleFor) };
writeFileSync(OUT, `${JSON.stringify(manifest, null, 2)}\n`);
