/**
 * `signalbox port-routes` reads the Ruby routes files are written in, not only the DSL calls: each case
 * is a routes file (or a piece of one) and the draw it ports to, in the acceptance corpus's format. For
 * every case the TypeScript module and the `--json` draw must also give the same route table.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { drawJson, drawOf, importPorted, outcomeOf, portText, reportsOf } from './port-routes-support.ts';

interface Case {
  readonly name: string;
  readonly ruby: string;
  readonly draw: unknown[];
}

const DEFAULT = [':controller/:action/:id'];

const CASES: Case[] = [
  // ---- how the routes are drawn ----
  {
    name: 'a draw block with do |map| ... end',
    ruby: "ActionController::Routing::Routes.draw do |map|\n  map.connect ':controller/:action/:id'\nend\n",
    draw: [['connect', ...DEFAULT]],
  },
  {
    name: 'bare map. statements (a plugin\'s routes file)',
    ruby: "map.connect ':controller/:action/:id'\n",
    draw: [['connect', ...DEFAULT]],
  },
  {
    name: 'a plugin\'s routes file run with the mapper as self (engines\' from_plugin, Desert): a call without a receiver is the mapper\'s',
    ruby: "resources :posts\nnamespace(:admin) do |admin|\n  admin.resources :users\nend\nabout 'about', :controller => 'pages'\nwith_options :controller => 'feeds' do |feeds|\n  feeds.connect 'feed'\nend\n",
    draw: [
      ['resources', 'posts'],
      ['namespace', 'admin', { $block: [['resources', 'users']] }],
      ['about', 'about', { controller: 'pages' }],
      ['with_options', { controller: 'feeds' }, { $block: [['connect', 'feed']] }],
    ],
  },
  {
    name: 'a byte-order mark and Windows line endings',
    ruby: "\uFEFFActionController::Routing::Routes.draw do |map|\r\n  map.connect ':controller/:action/:id' # default\r\nend\r\n",
    draw: [['connect', ...DEFAULT]],
  },
  {
    name: 'a brace block, whatever its variable is called, and a top-level constant path',
    ruby: "::ActionController::Routing::Routes.draw { |r| r.connect(':controller/:action/:id') }\n",
    draw: [['connect', ...DEFAULT]],
  },
  // ---- calls ----
  {
    name: 'a call with parentheses spread over lines',
    ruby: "map.connect(\n  'posts/:id',\n  :controller => 'posts',\n  :action => 'show'\n)\n",
    draw: [['connect', 'posts/:id', { controller: 'posts', action: 'show' }]],
  },
  {
    name: 'a call without parentheses continued after commas',
    ruby: "map.connect 'posts/:id',\n            :controller => 'posts',\n            :action => 'show'\n",
    draw: [['connect', 'posts/:id', { controller: 'posts', action: 'show' }]],
  },
  {
    name: 'a line continued with a backslash',
    ruby: "map.connect 'posts/:id', \\\n  :controller => 'posts'\n",
    draw: [['connect', 'posts/:id', { controller: 'posts' }]],
  },
  {
    name: 'hashes with =>, key: and explicit braces, mixed',
    ruby: "map.connect 'a/:id', controller: 'a', :action => 'show', 'format' => 'xml'\nmap.connect 'b', { :controller => 'b' }\n",
    draw: [['connect', 'a/:id', { controller: 'a', action: 'show', format: 'xml' }], ['connect', 'b', { controller: 'b' }]],
  },
  {
    name: 'a method name written against its symbol argument (map.resources:posts) calls the method, not a hash key',
    ruby: "map.resources:posts, :member => { :publish => :put }\nmap.with_options :controller => 'pages' do |pages|\n  pages.about'about', :action => 'about'\n  pages.resources:faqs, :only => :index\nend\n",
    draw: [
      ['resources', 'posts', { member: { publish: 'put' } }],
      ['with_options', { controller: 'pages' }, { $block: [['about', 'about', { action: 'about' }], ['resources', 'faqs', { only: 'index' }]] }],
    ],
  },
  {
    name: 'a plugin\'s routes file starting a statement with a name against its symbol (resources:posts) calls the mapper, while a name against a symbol where a value is expected is still a hash key',
    ruby: "resources:posts\nconnect 'a', {\n  controller: 'pages',\n  action: 'a' }\nconnect('b',\n  controller: 'pages'); resources:tags\n",
    draw: [['resources', 'posts'], ['connect', 'a', { controller: 'pages', action: 'a' }], ['connect', 'b', { controller: 'pages' }], ['resources', 'tags']],
  },
  {
    name: 'Ruby 1.8\'s hash of a list of keys and values ({ key, value, ... }), which Rails 2.x ran on',
    ruby: "map.resources :posts, :has_many => { :comments, :votes }\nmap.connect 'a', {\n  :controller, 'a',\n  :action, 'b',\n}\n",
    draw: [['resources', 'posts', { has_many: { comments: 'votes' } }], ['connect', 'a', { controller: 'a', action: 'b' }]],
  },
  {
    name: 'semicolons separate statements on one line',
    ruby: "map.connect 'a', :controller => 'a'; map.connect 'b', :controller => 'b'\n",
    draw: [['connect', 'a', { controller: 'a' }], ['connect', 'b', { controller: 'b' }]],
  },
  {
    name: 'map.send and named_route name their method or route by a string or symbol',
    ruby: "map.send(:resources, :posts)\nmap.send 'about', 'about', :controller => 'pages'\nmap.named_route 'login', 'login', :controller => 'sessions'\n",
    draw: [['resources', 'posts'], ['about', 'about', { controller: 'pages' }], ['login', 'login', { controller: 'sessions' }]],
  },
  {
    name: 'map.method_missing names a route by its first argument, on a map or a block\'s map',
    ruby: "map.method_missing :about, 'about', :controller => 'pages'\ndef day_route(m, name)\n  m.method_missing name.to_sym, \"days/:day\", :action => name\nend\nmap.with_options(:controller => 'days') do |d|\n  day_route d, 'show'\nend\n",
    draw: [['about', 'about', { controller: 'pages' }], ['with_options', { controller: 'days' }, { $block: [['show', 'days/:day', { action: 'show' }]] }]],
  },
  {
    name: 'any other method with a path is a named route (Rails\' method_missing)',
    ruby: "map.home '', :controller => 'welcome'\nmap.feed('feed.:format', :controller => 'posts', :action => 'feed')\n",
    draw: [['home', '', { controller: 'welcome' }], ['feed', 'feed.:format', { controller: 'posts', action: 'feed' }]],
  },
  {
    name: 'root with a hash, and with the name of an earlier route',
    ruby: "map.home 'home', :controller => 'welcome'\nmap.root :home\nmap.root :controller => 'welcome'\n",
    draw: [['home', 'home', { controller: 'welcome' }], ['root', 'home'], ['root', { controller: 'welcome' }]],
  },
  // ---- literals ----
  {
    name: 'strings: single-quoted escapes, double-quoted escapes, %q and %Q',
    ruby: "map.connect 'it\\'s/:a\\\\b/\\n', :controller => \"tab\\there\\x21\", :q => %q(x(y)z), :Q => %Q{#{1}}\n",
    draw: [['connect', "it's/:a\\b/\\n", { controller: 'tab\there!', q: 'x(y)z', Q: '1' }]],
  },
  {
    name: 'a line separator in a string or regexp survives into the module as an escape',
    ruby: "map.connect \"x\\u2028y\", :controller => 'c', :r => /a\\u2029b/\n",
    draw: [['connect', 'x\u2028y', { controller: 'c', r: { $regexp: 'a\\u2029b', flags: '' } }]],
  },
  {
    name: 'adjacent string literals are one string',
    ruby: "map.connect 'posts/' \"archive\", :controller => 'posts'\n",
    draw: [['connect', 'posts/archive', { controller: 'posts' }]],
  },
  {
    name: 'symbols, quoted symbols and %s become strings',
    ruby: "map.connect ':controller', :action => :\"show-all\", :format => %s(xml), :id => :\"n#{1}\"\n",
    draw: [['connect', ':controller', { action: 'show-all', format: 'xml', id: 'n1' }]],
  },
  {
    name: '%w{}, %w[], %W with interpolation, and %i lists',
    ruby: "v = 'v2'\nmap.resources :posts, :only => %w{index show}, :except => %w[new], :collection => { :x => %W(get #{v}) }, :has_many => %i(a b)\n",
    draw: [['resources', 'posts', { only: ['index', 'show'], except: ['new'], collection: { x: ['get', 'v2'] }, has_many: ['a', 'b'] }]],
  },
  {
    name: 'nil, true, false and integers (negative, hexadecimal, with underscores)',
    ruby: "map.connect ':controller', :id => nil, :page => 1, :offset => -2, :limit => 1_000, :mask => 0x1f, :on => true, :off => false\n",
    draw: [['connect', ':controller', { id: null, page: 1, offset: -2, limit: 1000, mask: 31, on: true, off: false }]],
  },
  {
    name: 'regexp literals, %r{} and flags',
    ruby: "map.connect 'p/:id/:slug', :controller => 'p', :requirements => { :id => /\\d+/, :slug => %r{[a-z]+}i }\n",
    draw: [['connect', 'p/:id/:slug', { controller: 'p', requirements: { id: { $regexp: '\\d+', flags: '' }, slug: { $regexp: '[a-z]+', flags: 'i' } } }]],
  },
  {
    name: 'heredocs, indented or squiggly, interpolating',
    ruby: "base = 'docs'\nmap.connect <<-PATH.strip, :controller => 'docs'\n  #{base}/:page\n  PATH\nmap.connect <<~PATH.chomp, :controller => 'docs'\n    #{base}/index\n  PATH\n",
    draw: [['connect', 'docs/:page', { controller: 'docs' }], ['connect', 'docs/index', { controller: 'docs' }]],
  },
  // ---- comments and the end of the script ----
  {
    name: 'comments, =begin/=end documents, and everything after __END__ are not routes',
    ruby: "# map.connect 'commented/out'\nmap.connect ':controller' # trailing\n=begin\nmap.connect 'in/a/document'\n=end\nmap.connect ':controller/:action'\n__END__\nmap.connect 'after/the/end' (\n",
    draw: [['connect', ':controller'], ['connect', ':controller/:action']],
  },
  // ---- variables ----
  {
    name: 'a local variable assigned a literal, used later',
    ruby: "date = { :year => /\\d{4}/, :month => /\\d{1,2}/ }\nmap.connect 'archive/:year/:month', :controller => 'archive', :requirements => date\n",
    draw: [['connect', 'archive/:year/:month', { controller: 'archive', requirements: { year: { $regexp: '\\d{4}', flags: '' }, month: { $regexp: '\\d{1,2}', flags: '' } } }]],
  },
  {
    name: 'hash.merge leaves the hash as it was; merge! and update change it',
    ruby: "base = { :controller => 'pages' }\nmap.connect 'a', base.merge(:action => 'a')\nmap.connect 'b', base\nbase.merge!(:action => 'c')\nmap.connect 'c', base\n",
    draw: [['connect', 'a', { controller: 'pages', action: 'a' }], ['connect', 'b', { controller: 'pages' }], ['connect', 'c', { controller: 'pages', action: 'c' }]],
  },
  {
    name: 'reverse_merge keeps the receiver\'s values',
    ruby: "opts = { :action => 'x' }\nmap.connect 'a', opts.reverse_merge(:controller => 'c', :action => 'default')\n",
    draw: [['connect', 'a', { controller: 'c', action: 'x' }]],
  },
  {
    name: 'a method chain continued on the next line with a leading dot',
    ruby: "opts = { :controller => 'a' }\n  .merge(:action => 'b')\nmap.connect 'a', opts\n",
    draw: [['connect', 'a', { controller: 'a', action: 'b' }]],
  },
  {
    name: 'constants assigned in the file, and string interpolation of locals',
    ruby: "PREFIX = 'api'\nversion = 2\nmap.connect \"#{PREFIX}/v#{version}/:controller/:action\"\n",
    draw: [['connect', 'api/v2/:controller/:action']],
  },
  {
    name: 'instance variables the file assigns are its self\'s: seen inside the draw block and after it, not scoped by blocks',
    ruby: "@id = /\\d+/\nActionController::Routing::Routes.draw do |map|\n  @opts = { :controller => 'pages' }\n  map.connect 'p/:id', @opts.merge(:requirements => { :id => @id })\nend\n@opts[:action] = 'q'\nmap.connect 'q', @opts\n",
    draw: [['connect', 'p/:id', { controller: 'pages', requirements: { id: { $regexp: '\\d+', flags: '' } } }], ['connect', 'q', { controller: 'pages', action: 'q' }]],
  },
  {
    name: 'a block parameter in parentheses takes its element apart: |(path, action)| over a list of pairs or a hash, |(a, b), i| with each_with_index',
    ruby: "[['about', 'about_us'], ['faq', 'help']].each { |(path, action)| map.connect path, :controller => 'pages', :action => action }\n{ 'terms' => 'legal' }.each { |(path, action)| map.connect path, :controller => 'pages', :action => action }\n[['x', 'y']].each_with_index { |(a, b), i| map.connect \"#{a}#{b}#{i}\", :controller => a }\n",
    draw: [
      ['connect', 'about', { controller: 'pages', action: 'about_us' }],
      ['connect', 'faq', { controller: 'pages', action: 'help' }],
      ['connect', 'terms', { controller: 'pages', action: 'legal' }],
      ['connect', 'xy0', { controller: 'x' }],
    ],
  },
  {
    name: 'a constant assigned in the draw block is the file\'s, seen after the block',
    ruby: "ActionController::Routing::Routes.draw do |map|\n  IDS = { :id => /\\d+/ }\nend\nmap.connect ':controller/:id', :requirements => IDS\n",
    draw: [['connect', ':controller/:id', { requirements: { id: { $regexp: '\\d+', flags: '' } } }]],
  },
  {
    name: 'a regexp interpolating another keeps its options',
    ruby: "word = /[a-z]+/i\nmap.connect 'w/:w', :controller => 'w', :w => /#{word}-x/\n",
    draw: [['connect', 'w/:w', { controller: 'w', w: { $regexp: '(?:[a-zA-Z]+)-x', flags: '' } }]],
  },
  {
    name: 'Regexp.new, Regexp.escape and the Regexp option constants, on values the file wrote',
    ruby: "SEP = 'a.b'\nmap.connect 'x/:id', :controller => 'x', :id => Regexp.new(\"#{Regexp.escape(SEP)}-\\\\d+\", Regexp::IGNORECASE | Regexp::EXTENDED)\nmap.connect 'y/:id', :controller => 'y', :id => Regexp.new('[a-z]+', true)\n",
    draw: [['connect', 'x/:id', { controller: 'x', id: { $regexp: 'a\\.b-\\d+', flags: 'xi' } }], ['connect', 'y/:id', { controller: 'y', id: { $regexp: '[a-z]+', flags: 'i' } }]],
  },
  {
    name: "Ruby's Date and DateTime name lists, and Array#- on them, as routes files build date segments",
    ruby: "map.connect '/:month', :controller => 'posts', :month => /#{(DateTime::MONTHNAMES - [nil]).join('|')}/\nmap.connect 'd/:day', :controller => 'days', :day => Regexp.new(::Date::ABBR_DAYNAMES.join('|'))\n",
    draw: [
      ['connect', '/:month', { controller: 'posts', month: { $regexp: 'January|February|March|April|May|June|July|August|September|October|November|December', flags: '' } }],
      ['connect', 'd/:day', { controller: 'days', day: { $regexp: 'Sun|Mon|Tue|Wed|Thu|Fri|Sat', flags: '' } }],
    ],
  },
  {
    name: "Ruby's multiline option is kept as JavaScript's s flag, beside the spelled-out dot",
    ruby: "map.connect 'notes', :controller => 'notes', :requirements => { :body => /a.b/m, :name => /x/mi }\n",
    draw: [['connect', 'notes', { controller: 'notes', requirements: { body: { $regexp: 'a[\\s\\S]b', flags: 's' }, name: { $regexp: 'x', flags: 'is' } } }]],
  },
  // ---- loops ----
  {
    name: '.each over a literal list, with map.send',
    ruby: "%w(about contact).each do |page|\n  map.send page, page, :controller => 'pages', :action => page\nend\n",
    draw: [['about', 'about', { controller: 'pages', action: 'about' }], ['contact', 'contact', { controller: 'pages', action: 'contact' }]],
  },
  {
    name: '.each over pairs spreads them over the block\'s parameters; a hash yields its pairs',
    ruby: "[['faq', 'help/faq'], ['tos', 'legal']].each { |name, path| map.send(name, path, :controller => 'pages') }\n{ :a => 'x' }.each do |k, v| map.send k, v, :controller => 'p' end\n",
    draw: [['faq', 'help/faq', { controller: 'pages' }], ['tos', 'legal', { controller: 'pages' }], ['a', 'x', { controller: 'p' }]],
  },
  {
    name: 'each_with_index and a list held in a constant',
    ruby: "PAGES = %w(a b).freeze\nPAGES.each_with_index do |page, i|\n  map.connect \"#{page}/#{i}\", :controller => page\nend\n",
    draw: [['connect', 'a/0', { controller: 'a' }], ['connect', 'b/1', { controller: 'b' }]],
  },
  {
    name: 'a list mapped with &:to_sym (Symbol#to_proc) and given the options by push, splatted into resources',
    ruby: "map.resources *%w(emails phones).map(&:to_s).map(&:to_sym).push({:controller => 'contacts'})\n%w(a b).each(&:freeze)\n",
    draw: [['resources', 'emails', 'phones', { controller: 'contacts' }]],
  },
  // ---- blocks ----
  {
    name: 'resources blocks nest, with the block variable\'s own name',
    ruby: "map.resources :posts, :has_many => :tags do |post|\n  post.resources :comments do |comment|\n    comment.resource :author\n  end\nend\n",
    draw: [['resources', 'posts', { has_many: 'tags' }, { $block: [['resources', 'comments', { $block: [['resource', 'author']] }]] }]],
  },
  {
    name: 'a do block belongs to the outermost call; a brace block to the nearest',
    ruby: "map.resources :posts, :member => { :x => :get } do |p| p.resources :tags end\nmap.with_options(:controller => 'a') { |a| a.connect 'a' }\n",
    draw: [
      ['resources', 'posts', { member: { x: 'get' } }, { $block: [['resources', 'tags']] }],
      ['with_options', { controller: 'a' }, { $block: [['connect', 'a']] }],
    ],
  },
  {
    name: 'a lambda kept in a variable is handed to several mapper calls with &, each use a block of its own',
    ruby: "pages = lambda do |p|\n  p.about 'about', :action => 'about'\n  p.resources :faqs\nend\nmap.with_options :controller => 'site', &pages\nmap.with_options(:controller => 'site', :path_prefix => 'm', :name_prefix => 'm_', &pages)\n",
    draw: [
      ['with_options', { controller: 'site' }, { $block: [['about', 'about', { action: 'about' }], ['resources', 'faqs']] }],
      ['with_options', { controller: 'site', path_prefix: 'm', name_prefix: 'm_' }, { $block: [['about', 'about', { action: 'about' }], ['resources', 'faqs']] }],
    ],
  },
  {
    name: 'proc, Proc.new and -> blocks, handed on with & or called with the map, see the variables around them',
    ruby: "ctl = 'feeds'\nadmin = proc { |a| a.resources :users }\nextra = Proc.new { |m| m.connect 'x', :controller => 'x' }\nfeeds = ->(f) { f.connect 'feed', :controller => ctl }\nmap.namespace :admin, &admin\nextra.call(map)\nfeeds.call map\n",
    draw: [['namespace', 'admin', { $block: [['resources', 'users']] }], ['connect', 'x', { controller: 'x' }], ['connect', 'feed', { controller: 'feeds' }]],
  },
  {
    name: 'an empty hash as :only or :except is the empty list Ruby\'s Array() makes of it, and nil passes through as written',
    ruby: "map.resources :notifications, :collection => { :register => :put }, :only => {}\nmap.resource :account, :except => {}, :only => nil\n",
    draw: [
      ['resources', 'notifications', { collection: { register: 'put' }, only: [] }],
      ['resource', 'account', { except: [], only: null }],
    ],
  },
  {
    name: 'a ternary and an if used for its value, on a condition the file decides, give the branch it picks',
    ruby: "[:tiers, :groups].each do |kind|\n  map.resources kind, :as => kind == :tiers ? 'communities' : \"#{kind}\", :path_prefix => (kind == :tiers ? nil : 'g')\nend\nprefix = if false then 'x' elsif 1 == 1 then 'y' end\nsuffix = unless true then 'z' end\nmap.connect \"#{prefix}/#{suffix}\", :controller => 'y'\n",
    draw: [
      ['resources', 'tiers', { as: 'communities', path_prefix: null }],
      ['resources', 'groups', { as: 'groups', path_prefix: 'g' }],
      ['connect', 'y/', { controller: 'y' }],
    ],
  },
  {
    name: 'lists built with <<, counted loops, integer ranges, select and reject, and sub, gsub, length and empty? on what the file wrote',
    ruby: "pages = []\npages << 'about' << 'faq'\npages.select { |p| p != 'faq' }.each { |p| map.connect p, :controller => 'pages' }\npages.reject { |p| p.length > 3 }.each { |p| map.connect p, :controller => 'faq'.sub('f', 'F').gsub('a', '_') }\n2.times { |i| map.connect \"v#{i}\", :controller => 'v' }\n(1...3).each { |i| map.connect \"r#{i}\", :controller => 'r' } unless pages.empty?\n",
    draw: [
      ['connect', 'about', { controller: 'pages' }],
      ['connect', 'faq', { controller: 'F_q' }],
      ['connect', 'v0', { controller: 'v' }],
      ['connect', 'v1', { controller: 'v' }],
      ['connect', 'r1', { controller: 'r' }],
      ['connect', 'r2', { controller: 'r' }],
    ],
  },
  {
    name: 'a case on what the file decides takes the first when that matches, a case without a subject the first true when, and a case gives its value',
    ruby: "STYLE = :nested\ncase STYLE\nwhen :flat, :plain then map.resources :posts\nwhen :nested\n  map.resources :posts do |posts|\n    posts.resources :comments\n  end\nelse\n  map.connect 'other', :controller => 'other'\nend\nlayout = case 'b' when 'a' then 'one' when *%w(b c) then 'two' end\nmap.connect layout, :controller => 'l'\ncase\nwhen false then map.connect 'never', :controller => 'n'\nwhen 1 == 1 then map.connect 'first', :controller => 'f'\nend\ncase 3\nwhen 1 then map.connect 'one', :controller => 'n'\nelse map.connect 'else', :controller => 'e'\nend\ncase nil when 1 then map.connect 'none', :controller => 'n' end\n",
    draw: [
      ['resources', 'posts', { $block: [['resources', 'comments']] }],
      ['connect', 'two', { controller: 'l' }],
      ['connect', 'first', { controller: 'f' }],
      ['connect', 'else', { controller: 'e' }],
    ],
  },
  {
    name: 'methods the file defines run at each call: arguments, defaults, a trailing if on an option, and a block they yield to',
    ruby: "def add_files(context, options = {})\n  context.resources :files do |file|\n    file.download 'download', :controller => 'files', :action => 'show'\n  end\n  context.images 'images', :controller => 'files' if options[:images]\nend\ndef add_users(context)\n  context.users 'users', :controller => 'context'\n  yield if block_given?\nend\nmap.resources :courses do |course|\n  add_users(course) do\n    course.prior_users 'users/prior', :controller => 'context'\n  end\n  add_files(course, :images => true)\nend\nmap.resources :groups do |group|\n  add_users group\n  add_files(group)\nend\n",
    draw: [
      ['resources', 'courses', { $block: [
        ['users', 'users', { controller: 'context' }],
        ['prior_users', 'users/prior', { controller: 'context' }],
        ['resources', 'files', { $block: [['download', 'download', { controller: 'files', action: 'show' }]] }],
        ['images', 'images', { controller: 'files' }],
      ] }],
      ['resources', 'groups', { $block: [['users', 'users', { controller: 'context' }], ['resources', 'files', { $block: [['download', 'download', { controller: 'files', action: 'show' }]] }]] }],
    ],
  },
  {
    name: 'a method body sees its parameters and the file\'s constants, not the locals around its def; its value can be used',
    ruby: "PREFIX = 'admin'\nname = 'outer'\ndef prefixed(path, *rest)\n  name = 'inner'\n  \"#{PREFIX}/#{path}#{rest[1]}\"\nend\ndef ctl; 'pages'; end\nmap.connect prefixed('x', 1, 2), :controller => ctl\nmap.connect name, :controller => ctl\n",
    draw: [['connect', 'admin/x2', { controller: 'pages' }], ['connect', 'outer', { controller: 'pages' }]],
  },
  {
    name: 'namespaces nest; several resource names in one call',
    ruby: "map.namespace :admin do |admin|\n  admin.namespace(:reports) { |reports| reports.resources :sales, :returns }\nend\n",
    draw: [['namespace', 'admin', { $block: [['namespace', 'reports', { $block: [['resources', 'sales', 'returns']] }]] }]],
  },
  {
    name: 'with_options blocks nest and name routes through their variable',
    ruby: "map.with_options :controller => 'site' do |site|\n  site.home '', :action => 'index'\n  site.with_options :action => 'page' do |page|\n    page.about 'about'\n  end\nend\n",
    draw: [['with_options', { controller: 'site' }, { $block: [['home', '', { action: 'index' }], ['with_options', { action: 'page' }, { $block: [['about', 'about']] }]] }]],
  },
  {
    name: 'with_options without options on a block\'s map keeps that map\'s options (as Rails\' OptionMerger supplies them)',
    ruby: "map.with_options :controller => 'news' do |news|\n  news.with_options do |n|\n    n.connect 'news/:id', :action => 'show'\n  end\nend\n",
    draw: [['with_options', { controller: 'news' }, { $block: [['with_options', {}, { $block: [['connect', 'news/:id', { action: 'show' }]] }]] }]],
  },
  {
    name: 'a block variable that hides the outer one',
    ruby: "map.resources :posts do |map|\n  map.resources :comments\nend\n",
    draw: [['resources', 'posts', { $block: [['resources', 'comments']] }]],
  },
  {
    name: 'a call on the outer map inside a with_options block keeps its place',
    ruby: "map.with_options :controller => 'x' do |x|\n  x.connect 'a'\n  map.connect 'b', :controller => 'b'\n  x.connect 'c'\nend\n",
    draw: [
      ['with_options', { controller: 'x' }, { $block: [['connect', 'a']] }],
      ['connect', 'b', { controller: 'b' }],
      ['with_options', { controller: 'x' }, { $block: [['connect', 'c']] }],
    ],
  },
  {
    name: 'a block without a variable: its calls are on the outer map',
    ruby: "map.with_options :controller => 'x' do\n  map.connect 'a', :controller => 'a'\nend\n",
    draw: [['with_options', { controller: 'x' }, { $block: [] }], ['connect', 'a', { controller: 'a' }]],
  },
  {
    name: 'a call on the outer map after a resource block\'s own calls follows the resource',
    ruby: "map.resources :posts do |post|\n  post.resources :comments\n  map.connect 'feed', :controller => 'feed'\nend\n",
    draw: [['resources', 'posts', { $block: [['resources', 'comments']] }], ['connect', 'feed', { controller: 'feed' }]],
  },
  {
    name: 'a file written for Rails 2 and 3 takes the branch Rails 2 took: Rails::VERSION::MAJOR is 2',
    ruby: "if Rails::VERSION::MAJOR >= 3\n  RedmineApp::Application.routes.draw do\n    scope '/projects/:project_id', :name_prefix => 'project' do\n      resources :todos\n    end\n  end\nelse\n  ActionController::Routing::Routes.draw do |map|\n    map.resources :todos, :name_prefix => 'project_', :path_prefix => '/projects/:project_id'\n  end\nend\nmap.connect 'legacy', :controller => 'legacy' if ::Rails::VERSION::MAJOR < 3\n",
    draw: [['resources', 'todos', { name_prefix: 'project_', path_prefix: '/projects/:project_id' }], ['connect', 'legacy', { controller: 'legacy' }]],
  },
  {
    name: 'a file written for Rails 2 and 3 takes the branch Rails 2 took when it compares Rails.version: every 2.x release answers alike',
    ruby: "if Rails.version < '3.0.0'\n  ActionController::Routing::Routes.draw do |map|\n    map.namespace(:admin, :path_prefix => 'refinery') do |admin|\n      admin.resources :posts\n    end\n  end\nelse\n  Refinery::Application.routes.draw do\n    scope(:path => 'refinery', :as => 'admin', :module => 'admin') do\n      resources :posts\n    end\n  end\nend\nmap.connect 'legacy', :controller => 'legacy' if '3' > ::Rails::VERSION::STRING\nmap.connect 'new', :controller => 'new' if Rails.version >= '3'\n",
    draw: [['namespace', 'admin', { path_prefix: 'refinery' }, { $block: [['resources', 'posts']] }], ['connect', 'legacy', { controller: 'legacy' }]],
  },
  {
    name: 'a local variable can hold a map',
    ruby: "m = map\nm.connect ':controller'\n",
    draw: [['connect', ':controller']],
  },
];

const cases = suite('port-routes: Ruby');

for (const c of CASES) {
  cases(`${c.name}`, async () => {
    assert.equal(drawOf(c.ruby), c.draw);
    assert.equal(reportsOf(c.ruby), [], 'nothing is reported');
    // The module and the draw give the same table (or fail to draw with the same error).
    const json = portText(c.ruby, 'json').output;
    const expected = outcomeOf(() => drawJson(json));
    let got: string;
    try {
      got = (await importPorted(portText(c.ruby, 'ts').output)).routes.print();
    } catch (error) {
      got = `${(error as Error).name}: ${(error as Error).message}`;
    }
    assert.is(got, expected);
  });
}

cases("a segment's requirement Rails refused (anchored with ^, $ or \\Z, or given the m option) fails to draw once ported, as the routes file failed to load", async () => {
  for (const [requirement, message] of [
    ['/^\\d+$/', /^ArgumentError: Regexp anchor characters are not allowed in routing requirements/],
    ['/\\d+\\Z/', /^ArgumentError: Regexp anchor characters are not allowed in routing requirements/],
    ['/\\d+/m', /^ArgumentError: Regexp multiline option not allowed in routing requirements/],
  ] as const) {
    const ruby = `map.connect 'pages/:title/revisions/:number', :controller => 'revisions', :requirements => { :number => ${requirement} }\n`;
    assert.equal(reportsOf(ruby), [], 'printed as written: the file\'s own mistake');
    assert.match(outcomeOf(() => drawJson(portText(ruby, 'json').output)), message);
    await importPorted(portText(ruby, 'ts').output).then(() => assert.unreachable('drew'), (error: Error) => assert.match(`${error.name}: ${error.message}`, message));
  }
});

cases.run();

// ---------------------------------------------------------------------------

const left = suite('port-routes: statements left out');

interface Omitted {
  readonly name: string;
  readonly ruby: string;
  /** The `not ported` lines on stderr. */
  readonly reports: string[];
  /** What was still ported. */
  readonly draw: unknown[];
}

const OMITTED: Omitted[] = [
  {
    name: 'a plugin hook, Rails.plugins.each and an extension loader',
    ruby: "map.resources :pages\nmap.from_plugin :community_engine\nRails.plugins.each do |plugin|\n  map.from_plugin plugin.name\nend\nmap.load_extension_routes\n",
    reports: [
      'config/routes.rb:2: not ported: map.from_plugin :community_engine',
      'config/routes.rb:3: not ported: Rails.plugins.each do |plugin| … end',
      'config/routes.rb:6: not ported: map.load_extension_routes',
    ],
    draw: [['resources', 'pages']],
  },
  {
    name: 'a named route that names no controller, which Rails 2.x refuses: a plugin\'s method (map.filter), not a route',
    ruby: "map.filter 'locale'\nmap.resources :projects do |project|\n  project.filter 'current_project'\n  project.search 'search', :controller => 'search'\nend\nmap.with_options :controller => 'pages' do |pages|\n  pages.about 'about'\nend\nmap.namespace :admin, :controller => 'admin/base' do |admin|\n  admin.with_options :action => 'show' do |a|\n    a.dashboard 'dashboard'\n  end\nend\nmap.generic ':controller/:action'\n",
    reports: ["config/routes.rb:1: not ported: map.filter 'locale'", "config/routes.rb:3: not ported: project.filter 'current_project'"],
    draw: [
      ['resources', 'projects', { $block: [['search', 'search', { controller: 'search' }]] }],
      ['with_options', { controller: 'pages' }, { $block: [['about', 'about']] }],
      ['namespace', 'admin', { controller: 'admin/base' }, { $block: [['with_options', { action: 'show' }, { $block: [['dashboard', 'dashboard']] }]] }],
      ['generic', ':controller/:action'],
    ],
  },
  {
    name: 'a statement draw() refuses (a root aliasing a route a left-out plugin call drew) is reported, and the rest still draws',
    ruby: "map.devise_for :users\nmap.resources :posts do |posts|\n  posts.resources :comments, :member => { :mark => :head }\n  posts.resources :tags\nend\nmap.root :new_user_session\nmap.connect ':controller/:action/:id'\n",
    reports: ['config/routes.rb:1: not ported: map.devise_for :users', "config/routes.rb:3: not ported: posts.resources :comments, :member => { :mark => :head }", 'config/routes.rb:6: not ported: map.root :new_user_session'],
    draw: [['resources', 'posts', { $block: [['resources', 'tags']] }], ['connect', ':controller/:action/:id']],
  },
  {
    name: 'a range of anything but integers, a regexp given to gsub, and a replacement that names groups',
    ruby: "('a'..'c').each { |l| map.connect l, :controller => l }\nmap.connect 'x', :controller => 'a_b'.gsub(/_/, '/')\nmap.connect 'y', :controller => 'a_b'.sub('_', '\\\\0')\nmap.connect ':controller'\n",
    reports: [
      "config/routes.rb:1: not ported: ('a'..'c').each { |l| map.connect l, :controller => l }",
      "config/routes.rb:2: not ported: map.connect 'x', :controller => 'a_b'.gsub(/_/, '/')",
      "config/routes.rb:3: not ported: map.connect 'y', :controller => 'a_b'.sub('_', '\\\\0')",
    ],
    draw: [['connect', ':controller']],
  },
  {
    name: 'require, and a method defined elsewhere',
    ruby: "require 'routing_extensions'\ndraw_admin_routes(map)\nmap.connect ':controller'\n",
    reports: ['config/routes.rb:1: not ported: require \'routing_extensions\'', 'config/routes.rb:2: not ported: draw_admin_routes(map)'],
    draw: [['connect', ':controller']],
  },
  {
    name: 'trailing if and unless modifiers and if blocks on what the file cannot decide (the environment, without --env)',
    ruby: "map.connect 'debug/:action', :controller => 'debug' if RAILS_ENV == 'development'\nmap.connect 'x', :controller => 'x' unless ENV['NO_X']\nif defined?(Admin)\n  map.connect 'y', :controller => 'y'\nend\nif true\n  map.connect 'z', :controller => 'z'\nend\nLOCAL = false\nmap.connect 'w', :controller => 'w' unless !LOCAL\nmap.connect ':controller'\n",
    reports: [
      "config/routes.rb:1: not ported: map.connect 'debug/:action', :controller => 'debug' if RAILS_ENV == 'development'",
      "config/routes.rb:2: not ported: map.connect 'x', :controller => 'x' unless ENV['NO_X']",
      'config/routes.rb:3: not ported: if defined?(Admin) … end',
    ],
    draw: [['connect', 'z', { controller: 'z' }], ['connect', ':controller']],
  },
  {
    name: 'a condition on which Rails 2 release runs the file (Rails::VERSION::MINOR, ::STRING), or on a Rails the file defines itself',
    ruby: "map.resources :posts, :only => :index if Rails::VERSION::MINOR >= 2\nmap.connect 'v', :controller => 'v' if Rails::VERSION::STRING > '2.1'\nRails = Settings.rails\nmap.connect 'm', :controller => 'm' if Rails::VERSION::MAJOR == 2\nmap.connect ':controller'\n",
    reports: [
      'config/routes.rb:1: not ported: map.resources :posts, :only => :index if Rails::VERSION::MINOR >= 2',
      "config/routes.rb:2: not ported: map.connect 'v', :controller => 'v' if Rails::VERSION::STRING > '2.1'",
      'config/routes.rb:3: not ported: Rails = Settings.rails',
      "config/routes.rb:4: not ported: map.connect 'm', :controller => 'm' if Rails::VERSION::MAJOR == 2",
    ],
    draw: [['connect', ':controller']],
  },
  {
    name: 'a comparison of Rails.version that Rails 2 releases answer differently, or with something other than a string',
    ruby: "map.resources :posts, :only => :index if Rails.version >= '2.2'\nmap.connect 'v', :controller => 'v' if Rails.version < 3\nmap.connect ':controller'\n",
    reports: [
      "config/routes.rb:1: not ported: map.resources :posts, :only => :index if Rails.version >= '2.2'",
      "config/routes.rb:2: not ported: map.connect 'v', :controller => 'v' if Rails.version < 3",
    ],
    draw: [['connect', ':controller']],
  },
  {
    name: 'a method defined in the file, and the calls of it',
    ruby: "def map.page(name)\n  connect name, :controller => 'pages', :action => name\nend\nmap.page 'about', :controller => 'pages'\n",
    reports: ['config/routes.rb:1: not ported: def map.page(name) … end', "config/routes.rb:4: not ported: map.page 'about', :controller => 'pages'"],
    draw: [],
  },
  {
    name: 'a constant or variable the file does not define, used in an option or a string',
    ruby: "map.resources :posts, :requirements => ID_FORMAT\nmap.connect \"#{prefix}/:controller\"\nmap.connect 'uploads/*path', :controller => UploadsController.controller_path\n",
    reports: [
      'config/routes.rb:1: not ported: map.resources :posts, :requirements => ID_FORMAT',
      'config/routes.rb:2: not ported: map.connect "#{prefix}/:controller"',
      "config/routes.rb:3: not ported: map.connect 'uploads/*path', :controller => UploadsController.controller_path",
    ],
    draw: [],
  },
  {
    name: 'one statement of a block; the rest of the block is ported',
    ruby: "map.namespace :admin do |admin|\n  admin.resources :posts\n  admin.from_plugin :cms\n  admin.resources :users\nend\n",
    reports: ['config/routes.rb:3: not ported: admin.from_plugin :cms'],
    draw: [['namespace', 'admin', { $block: [['resources', 'posts'], ['resources', 'users']] }]],
  },
  {
    name: 'a list mapped through an inflection (&:pluralize), which depends on the application\'s inflections',
    ruby: "map.resources *%w(book idea).map(&:pluralize)\nmap.connect ':controller'\n",
    reports: ['config/routes.rb:1: not ported: map.resources *%w(book idea).map(&:pluralize)'],
    draw: [['connect', ':controller']],
  },
  {
    name: 'a statement inside a loop is reported once, not once per element',
    ruby: "%w(a b c).each do |x|\n  map.connect x, :controller => x\n  map.from_plugin x.to_sym\nend\n",
    reports: ['config/routes.rb:3: not ported: map.from_plugin x.to_sym'],
    draw: [['connect', 'a', { controller: 'a' }], ['connect', 'b', { controller: 'b' }], ['connect', 'c', { controller: 'c' }]],
  },
  {
    name: 'a regexp JavaScript has no equivalent for',
    ruby: "map.connect 'n/:n', :controller => 'n', :n => /(?>\\d+)x/\nmap.connect 'm/:m', :controller => 'm', :m => /\\d++/\n",
    reports: ["config/routes.rb:1: not ported: map.connect 'n/:n', :controller => 'n', :n => /(?>\\d+)x/", "config/routes.rb:2: not ported: map.connect 'm/:m', :controller => 'm', :m => /\\d++/"],
    draw: [],
  },
  {
    name: 'case, begin/rescue, loops and class variables',
    ruby: "case RAILS_ENV\nwhen 'test' then map.connect 't'\nend\nbegin\n  map.connect 'b'\nrescue NameError\nend\nwhile false do end\n@@opts = {}\n",
    reports: ['config/routes.rb:1: not ported: case RAILS_ENV … end', 'config/routes.rb:4: not ported: begin … end', 'config/routes.rb:8: not ported: while false do end', 'config/routes.rb:9: not ported: @@opts = {}'],
    draw: [],
  },
  {
    name: 'a case whose when is a regexp or a range is left out whole, and what follows it is ported',
    ruby: "case 'dev'\nwhen /^d/ then map.connect 'd', :controller => 'd'\nend\ncase 2\nwhen 1..3 then map.connect 'r', :controller => 'r'\nend\nmap.connect 'kept', :controller => 'k'\n",
    reports: ["config/routes.rb:1: not ported: case 'dev' … end", 'config/routes.rb:4: not ported: case 2 … end'],
    draw: [['connect', 'kept', { controller: 'k' }]],
  },
  {
    name: 'a call without a receiver in a file that draws with Routes.draw, where self is no mapper',
    ruby: "ActionController::Routing::Routes.draw do |map|\n  resources :posts\n  map.resources :tags\nend\n",
    reports: ['config/routes.rb:2: not ported: resources :posts'],
    draw: [['resources', 'tags']],
  },
  {
    name: 'a routes file of a later Rails (routes.draw without a map)',
    ruby: "Blog::Application.routes.draw do\n  resources :posts\nend\n",
    reports: ['config/routes.rb:1: not ported: Blog::Application.routes.draw do … end'],
    draw: [],
  },
  {
    name: 'a local variable first assigned in a block is gone after it',
    ruby: "ActionController::Routing::Routes.draw do |map|\n  page = 1\nend\nmap.connect ':controller', :page => page\n",
    reports: ["config/routes.rb:4: not ported: map.connect ':controller', :page => page"],
    draw: [],
  },
  {
    name: 'a block handed on from elsewhere (&) that is no lambda or proc of the file',
    ruby: "map.with_options :controller => 'x', &Admin::ROUTES\nsettings = 'text'\nmap.namespace :admin, &settings\nmap.connect ':controller/kept'\n",
    reports: ["config/routes.rb:1: not ported: map.with_options :controller => 'x', &Admin::ROUTES", 'config/routes.rb:3: not ported: map.namespace :admin, &settings'],
    draw: [['connect', ':controller/kept']],
  },
  {
    name: 'a block given to connect, root or named_route: the route is drawn, the block (which Rails never runs) is reported',
    ruby: "map.connect(':controller/:action/:id') do |route|\n  class << route\n    def recognize(path) end\n  end\nend\nmap.root(:controller => 'home') { |r| r.hook }\nmap.named_route 'about', 'about', :controller => 'pages' do end\nmap.with_options :controller => 'x' do |x|\n  x.connect 'x/:id' do end\nend\n",
    reports: [
      'config/routes.rb:1: not ported: do |route| … end',
      'config/routes.rb:6: not ported: { |r| r.hook }',
      'config/routes.rb:7: not ported: do end',
      'config/routes.rb:9: not ported: do end',
    ],
    draw: [
      ['connect', ':controller/:action/:id'],
      ['root', { controller: 'home' }],
      ['about', 'about', { controller: 'pages' }],
      ['with_options', { controller: 'x' }, { $block: [['connect', 'x/:id']] }],
    ],
  },
  {
    name: 'a hash among resources\' names, which Rails took for one more name: the names are drawn without its options, the hash reported',
    ruby: "map.resources :tags, { :only => :index }, :notes\nmap.namespace :admin do |admin|\n  admin.resources :users,\n    { :only => [:show] }, :roles\nend\n",
    reports: ['config/routes.rb:1: not ported: { :only => :index }', 'config/routes.rb:4: not ported: { :only => [:show] }'],
    draw: [['resources', 'tags', 'notes'], ['namespace', 'admin', { $block: [['resources', 'users', 'roles']] }]],
  },
  {
    name: 'a named route written with a block, which Rails 2.x\'s mapper refuses (NoMethodError)',
    ruby: "map.about 'about', :controller => 'pages' do end\nmap.connect ':controller/kept'\n",
    reports: ["config/routes.rb:1: not ported: map.about 'about', :controller => 'pages' do end"],
    draw: [['connect', ':controller/kept']],
  },
  {
    name: 'a method of the file called before its def runs, with the wrong number of arguments, recursively, or yielding without a block',
    ruby: "early(map)\ndef early(m)\n  m.connect ':controller/early'\nend\nearly(map, 1)\ndef deep(m)\n  deep(m)\nend\ndeep(map)\ndef each_page(m)\n  yield m\n  m.connect ':controller/after'\nend\neach_page(map)\nearly(map)\n",
    reports: [
      'config/routes.rb:1: not ported: early(map)',
      'config/routes.rb:5: not ported: early(map, 1)',
      'config/routes.rb:7: not ported: deep(m)',
      'config/routes.rb:11: not ported: yield m',
    ],
    draw: [['connect', ':controller/after'], ['connect', ':controller/early']],
  },
  {
    name: 'a method of the file called on a map, or defined only inside a module the port does not run',
    ruby: "def page(m)\n  m.connect 'page'\nend\nmap.page(map)\nmodule Helpers\n  def helper(m) m.connect 'h' end\nend\nhelper(map)\npage(map)\n",
    reports: ['config/routes.rb:4: not ported: map.page(map)', 'config/routes.rb:5: not ported: module Helpers … end', 'config/routes.rb:8: not ported: helper(map)'],
    draw: [['connect', 'page']],
  },
  {
    name: 'a method of the file that calls itself twice is stopped by the input\'s budget, not run 2^32 times',
    ruby: "def a(m)\n  a(m)\n  a(m)\n  m.connect ':controller/x'\nend\na(map)\nmap.connect ':controller/kept'\n",
    reports: ['config/routes.rb:2: not ported: a(m)', 'config/routes.rb:3: not ported: a(m)', 'config/routes.rb:6: not ported: a(map)'],
    draw: [['connect', ':controller/kept']],
  },
  {
    name: 'a map used after its block has ended',
    ruby: "saved = nil\nmap.with_options(:controller => 'x') { |x| saved = x }\nsaved.connect 'late'\n",
    reports: ["config/routes.rb:3: not ported: saved.connect 'late'"],
    draw: [['with_options', { controller: 'x' }, { $block: [] }]],
  },
];

for (const c of OMITTED) {
  left(c.name, () => {
    const result = portText(c.ruby, 'json');
    assert.equal(result.reports.filter((l) => !l.startsWith('  ')), c.reports);
    // Each report is followed by its reason, indented.
    result.reports.forEach((l, i) => {
      if (!l.startsWith('  ')) assert.ok(result.reports[i + 1]?.startsWith('  ') && result.reports[i + 1].trim() !== '', `a reason follows ${l}`);
    });
    assert.equal(JSON.parse(result.output), c.draw);
  });
}

left('a variable a left-out statement assigned or filled is left out where it is used, saying which statement gave it', () => {
  const ruby = "count = Settings.count\n(1..count).each { |i| map.connect \"p#{i}\", :controller => 'p' }\nnames = []\nPLUGINS.each { |p| names << p }\nnames.each { |n| map.connect n, :controller => n }\nmap.connect 'kept', :controller => 'k'\n";
  const { reports, output } = portText(ruby, 'json');
  assert.equal(reports.filter((l) => !l.startsWith('  ')), [
    'config/routes.rb:1: not ported: count = Settings.count',
    'config/routes.rb:2: not ported: (1..count).each { |i| map.connect "p#{i}", :controller => \'p\' }',
    'config/routes.rb:4: not ported: PLUGINS.each { |p| names << p }',
    'config/routes.rb:5: not ported: names.each { |n| map.connect n, :controller => n }',
  ]);
  // Not "a method defined elsewhere", and not the empty list it was before the loop that was left out.
  assert.is(reports[reports.indexOf('config/routes.rb:2: not ported: (1..count).each { |i| map.connect "p#{i}", :controller => \'p\' }') + 1], '  it uses count, which the statement on line 1 (not ported) assigns');
  assert.is(reports[reports.length - 1], '  it uses names, which the statement on line 4 (not ported) assigns or changes');
  assert.equal(JSON.parse(output), [['connect', 'kept', { controller: 'k' }]]);
  // Assigned again by a statement that is ported, the variable is known again.
  assert.equal(drawOf("x = Settings.x\nx = 'y'\nmap.connect x, :controller => x\n"), [['connect', 'y', { controller: 'y' }]]);
});

left('an instance variable the file reads before assigning it, or that a left-out statement assigned, is left out where it is used', () => {
  const ruby = "map.connect 'a', :controller => @set_elsewhere\nmap.with_options(:controller => 'x') { |x| @ids = Settings.ids }\nmap.connect 'b', :controller => 'b', :requirements => @ids\nmap.connect 'kept', :controller => 'k'\n";
  const { reports, output } = portText(ruby, 'json');
  assert.equal(reports, [
    "config/routes.rb:1: not ported: map.connect 'a', :controller => @set_elsewhere",
    '  it uses @set_elsewhere, an instance variable the file does not assign before it',
    "config/routes.rb:2: not ported: @ids = Settings.ids",
    '  it uses Settings, a constant defined elsewhere',
    "config/routes.rb:3: not ported: map.connect 'b', :controller => 'b', :requirements => @ids",
    '  it uses @ids, which the statement on line 2 (not ported) assigns',
  ]);
  assert.equal(JSON.parse(output), [['with_options', { controller: 'x' }, { $block: [] }], ['connect', 'kept', { controller: 'k' }]]);
});

left('a change to Rails\' own routing settings is reported as one, with the defaults the routes are read with', () => {
  // Rails 1.2 routes files kept ';' paths working in Rails 2 by adding it to the separators: not "a constant
  // defined elsewhere", which sent the reader to look for a definition in the application.
  const ruby = "ActionController::Routing::SEPARATORS.concat %w( ; )\n::ActionController::Routing::SEPARATORS << ';'\nmap.connect ':controller/:id;:action'\n";
  const { reports, output } = portText(ruby, 'json');
  const reason = "  it uses ActionController::Routing::SEPARATORS, a setting of Rails' routing that Signalbox keeps at Rails' default (/ . ?): the routes are read as Rails read them with those, another character being text in a path and matched by its keys";
  assert.equal(reports, [
    'config/routes.rb:1: not ported: ActionController::Routing::SEPARATORS.concat %w( ; )',
    reason,
    "config/routes.rb:2: not ported: ::ActionController::Routing::SEPARATORS << ';'",
    reason.replace('ActionController', '::ActionController'),
  ]);
  assert.equal(JSON.parse(output), [['connect', ':controller/:id;:action']]);
  // In a file that defines an ActionController of its own, the constant is the file's, not Rails'.
  assert.is(portText("ActionController = Settings.ac\nActionController::Routing::SEPARATORS << ';'\n").reports[3], '  it uses ActionController::Routing::SEPARATORS, a constant defined elsewhere');
});

left('a Ruby 1.8 list hash of an odd length is the syntax error Ruby 1.8 made it, and mixing it with pairs is one too', () => {
  assert.equal(portText("map.connect 'a', { :controller, 'a', :action }\n").reports, ['config/routes.rb:1: syntax error: odd number list for Hash']);
  assert.match(portText("map.connect 'a', { :controller, 'a', :action => 'b' }\n").reports[0], /^config\/routes\.rb:1: syntax error: unexpected/);
});

left('the module says where each statement was left out, and why', () => {
  const { output } = portText("map.resources :pages\nmap.from_plugin :cms\nmap.connect ':controller'\n", 'ts');
  const lines = output.split('\n').map((l) => l.trim());
  const at = lines.indexOf('// config/routes.rb:2: not ported: map.from_plugin :cms');
  assert.ok(at > lines.indexOf("map.resources('pages');"), output);
  assert.match(lines[at + 1], /^\/\/ {3}\S/);
  assert.ok(lines.indexOf("map.connect(':controller/:action/:id');") === -1 && lines.indexOf("map.connect(':controller');") > at);
});

left('the module marks where a method of the file was defined, and keeps the comments of its body there, not at its calls', () => {
  const { output } = portText("def add_feed(m)\n  # the feed of a context\n  m.feed 'feed', :controller => 'feeds'\nend\nmap.resources :blogs do |blog|\n  add_feed(blog)\nend\n", 'ts');
  const lines = output.split('\n').map((l) => l.trim());
  const mark = lines.indexOf('// config/routes.rb:1: def add_feed(m) … end: its routes are drawn where it is called');
  assert.ok(mark >= 0, output);
  assert.ok(!lines.includes('// the feed of a context'), output);
  assert.ok(lines.indexOf("blog.named('feed', 'feed', { controller: 'feeds' });") > mark, output);
});

left('a comment or a quoted statement cannot end its comment line in the module (U+2028, U+2029, \\r)', async () => {
  const ruby = "# note\u2028throw new Error('from a comment')\nmap.from_plugin :\"\u2029throw new Error('from a statement')\"\n# a\rthrow new Error('after a carriage return')\nmap.connect ':controller'\n";
  const { output } = portText(ruby, 'ts');
  assert.not.match(output, /[\u2028\u2029\r]/);
  const { routes } = await importPorted(output);
  assert.equal(routes.routes.map((r) => r.path), ['/:controller']);
});

left('in the draw format, a call on the outer map between a resource block\'s own calls is reported', () => {
  const ruby = "map.resources :posts do |post|\n  post.resources :a\n  map.connect 'x', :controller => 'x'\n  post.resources :b\nend\n";
  const json = portText(ruby, 'json');
  assert.equal(json.reports.filter((l) => !l.startsWith('  ')), ['config/routes.rb:1: not ported: map.resources :posts do |post| … end']);
  assert.equal(JSON.parse(json.output), []);
  // The module has no such limit: the block calls the outer map where the file does.
  assert.equal(portText(ruby, 'ts').reports, []);
});

left('a named route whose name the draw format reads as a method is reported in --json only', () => {
  const ruby = "map.named_route 'connect', 'c', :controller => 'c'\n";
  assert.equal(reportsOf(ruby, 'json'), ["config/routes.rb:1: not ported: map.named_route 'connect', 'c', :controller => 'c'"]);
  assert.equal(reportsOf(ruby, 'ts'), []);
  assert.match(portText(ruby, 'ts').output, /map\.named\('connect', 'c', \{ controller: 'c' \}\);/);
});

left('the module of a file with a statement draw() refuses after one left out loads, and marks the statement where it stood', async () => {
  const { output } = portText("map.from_plugin :auth\nmap.resources :posts\nmap.root :sign_in\nmap.connect ':controller/:action/:id'\n", 'ts');
  const lines = output.split('\n').map((l) => l.trim());
  const at = lines.indexOf('// config/routes.rb:3: not ported: map.root :sign_in');
  assert.ok(at > 0 && lines[at + 1].startsWith("//   Signalbox's draw() refuses it (ArgumentError: "), output);
  const { routes } = await importPorted(output);
  assert.equal(routes.recognize('GET', '/posts/1'), { controller: 'posts', action: 'show', id: '1' });
  assert.is(routes.named.root, undefined);
});

left.run();
