-- handouts/render/hint-anchors.lua — a pandoc filter: in a handout's hints
-- section (the heading titled by the metadata hints_titles), every hint key
-- named in the first column of its table gets an HTML anchor whose id is the
-- key, so that a report can link 02-shared-tile.html#tile-edges. The section
-- heading itself gets the id "hints" in every language.
--
-- Metadata (render.sh passes it in a metadata file): hint_keys, the
-- registry's keys separated by spaces; hints_titles, the section's titles
-- (one per language) separated by "|".
-- A first cell names keys as "tile-edges", "off-by-one, unwritten-cells",
-- "neighbours-swapped-x/y/z" (one key per letter) or "axes-swapped-…"
-- (every key with that prefix); other words are left alone.

local stringify = pandoc.utils.stringify

local keys = {}       -- key -> true, for every key of the registry
local key_list = {}   -- the same keys in the registry's order
local titles = {}     -- heading text -> true

-- keys_named(text): the registry keys a first cell's text names, in order.
local function keys_named(text)
  local found = {}
  text = text:gsub("…", "...")
  for token in text:gmatch("[%w%-/%.]+") do
    if token:sub(-3) == "..." and token:sub(-4, -4) == "-" then
      local prefix = token:sub(1, -4):lower()
      for _, k in ipairs(key_list) do
        if k:sub(1, #prefix) == prefix then table.insert(found, k) end
      end
    else
      token = token:gsub("%.+$", ""):lower()
      local base, alts = token:match("^(.*%-)([%w/]+)$")
      if base and alts:find("/", 1, true) then
        for alt in alts:gmatch("[^/]+") do
          if keys[base .. alt] then table.insert(found, base .. alt) end
        end
      elseif keys[token] then
        table.insert(found, token)
      end
    end
  end
  return found
end

-- anchor_table(tbl, seen): the table with an empty span id=key at the start
-- of each body row's first cell, once per key in the document.
local function anchor_table(tbl, seen)
  for b, body in ipairs(tbl.bodies) do
    for r, row in ipairs(body.body) do
      local cell = row.cells[1]
      if cell then
        local spans = {}
        for _, k in ipairs(keys_named(stringify(cell.contents))) do
          if not seen[k] then
            seen[k] = true
            table.insert(spans, pandoc.Span({}, pandoc.Attr(k)))
          end
        end
        if #spans > 0 then
          local blocks = cell.contents
          if #blocks > 0 and (blocks[1].t == "Plain" or blocks[1].t == "Para") then
            for i = #spans, 1, -1 do blocks[1].content:insert(1, spans[i]) end
          else
            table.insert(blocks, 1, pandoc.Plain(spans))
          end
          cell.contents = blocks
          row.cells[1] = cell
          body.body[r] = row
        end
      end
    end
    tbl.bodies[b] = body
  end
  return tbl
end

function Pandoc(doc)
  for k in stringify(doc.meta.hint_keys or ""):gmatch("%S+") do
    keys[k] = true
    table.insert(key_list, k)
  end
  for t in stringify(doc.meta.hints_titles or ""):gmatch("[^|]+") do
    titles[t] = true
  end
  local level = nil   -- the hints heading's level while inside its section
  local seen = {}
  for i, block in ipairs(doc.blocks) do
    if block.t == "Header" then
      if level and block.level <= level then level = nil end
      if titles[stringify(block.content)] then
        level = block.level
        block.identifier = "hints"
        doc.blocks[i] = block
      end
    elseif level and block.t == "Table" then
      doc.blocks[i] = anchor_table(block, seen)
    end
  end
  return doc
end
