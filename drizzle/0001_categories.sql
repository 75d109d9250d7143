-- The nine fixed categories of docs/product/content.md#categories. Their ids are fixed by the search backgrounds
-- (docs/product/content.md#category-backgrounds: 1 and 5 torgovlia, 2 and 3 games, 4 and 9 crypta).
INSERT INTO "categories" ("id", "slug", "name") VALUES
  (1, 'torgovlia', 'Торговля'),
  (2, 'games', 'Игры'),
  (3, 'game-accounts', 'Игровые аккаунты'),
  (4, 'crypto', 'Криптовалюта'),
  (5, 'services', 'Услуги'),
  (6, 'news', 'Новости'),
  (7, 'discussions', 'Обсуждения'),
  (8, 'offtopic', 'Оффтоп'),
  (9, 'mining-defi', 'Майнинг и DeFi');
