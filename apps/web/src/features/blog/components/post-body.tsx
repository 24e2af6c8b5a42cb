import './article.css';

import type { Block } from '../posts';
import { InlineText } from './inline-text';

function PostBlock({ block }: { block: Block }) {
  switch (block.type) {
    case 'paragraph':
      return (
        <p>
          <InlineText text={block.text} />
        </p>
      );
    case 'heading':
      return (
        <h2 id={block.id}>
          <InlineText text={block.text} />
        </h2>
      );
    case 'subheading':
      return (
        <h3>
          <InlineText text={block.text} />
        </h3>
      );
    case 'list': {
      const items = block.items.map((item) => (
        <li key={item}>
          <InlineText text={item} />
        </li>
      ));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case 'code':
      return (
        <figure>
          <figcaption>{block.label}</figcaption>
          <pre tabIndex={0} aria-label={block.label}>
            <code>{block.code}</code>
          </pre>
        </figure>
      );
    case 'callout':
      return (
        <p className="callout">
          <InlineText text={block.text} />
        </p>
      );
    case 'table':
      return (
        <div
          className="overflow-x-auto rounded-box border border-base-300"
          role="region"
          aria-label={block.caption}
          tabIndex={0}
        >
          <table>
            <caption>{block.caption}</caption>
            <thead>
              <tr>
                {block.head.map((cell, index) =>
                  cell ? (
                    <th key={index} scope="col">
                      {cell}
                    </th>
                  ) : (
                    <td key={index} />
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row) => (
                <tr key={row.join('|')}>
                  {row.map((cell, index) =>
                    index === 0 ? (
                      <th key={index} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td key={index}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

export function PostBody({ blocks }: { blocks: readonly Block[] }) {
  return (
    <div className="article">
      {blocks.map((block, index) => (
        <PostBlock key={index} block={block} />
      ))}
    </div>
  );
}
