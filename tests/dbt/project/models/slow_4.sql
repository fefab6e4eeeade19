select (select s from {{ ref('slow_3') }}) + sum(i % 11) as s from range(0, 60000000) t(i)
